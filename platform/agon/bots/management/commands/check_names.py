"""`manage.py check_names`: the usernames and bot names taken before the naming rules
(`agon.accounts.names`) that the rules would refuse now, or that look like another. They
stay valid; this lists them for staff to look at. Exit 0 when there are none, 1 if any."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError

from agon.accounts.names import names_report
from agon.bots.models import Bot


class Command(BaseCommand):
    help = "List the usernames and bot names the naming rules would refuse today."

    def handle(self, *args: Any, **options: Any) -> None:
        users = list(User.objects.order_by("id").values_list("username", flat=True))
        bots = [
            (owner, name)
            for owner, name in Bot.objects.order_by("id").values_list("owner__username", "name")
        ]
        lines = names_report(users=users, bots=bots)
        for line in lines:
            self.stdout.write(line)
        if lines:
            raise CommandError(f"{len(lines)} name(s) the naming rules would refuse today")
        self.stdout.write("Every username and bot name follows the naming rules.")
