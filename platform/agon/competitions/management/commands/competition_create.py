"""`manage.py competition_create`: staff make a competition from the command line (the
admin makes them too). Dates are given as minutes from now, or as ISO 8601 times."""

from __future__ import annotations

from argparse import ArgumentParser
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from agon.competitions.services import competition_create


def when(text: str, now: datetime) -> datetime:
    """`+30` is thirty minutes from `now`; anything else an ISO 8601 time (UTC if naive)."""
    if text.startswith("+"):
        return now + timedelta(minutes=float(text[1:]))
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.get_current_timezone())


class Command(BaseCommand):
    help = "Make a competition: its ladders, its phases' dates and its final."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("name")
        parser.add_argument("--staff", required=True, help="the staff user who makes it")
        parser.add_argument("--game", required=True)
        parser.add_argument("--players", type=int, nargs="+", default=[2])
        parser.add_argument("--opens", default="+0.05", help="+minutes from now, or ISO 8601")
        parser.add_argument("--freezes", required=True, help="+minutes from now, or ISO 8601")
        parser.add_argument("--final", required=True, help="+minutes from now, or ISO 8601")
        parser.add_argument("--format", default="round-robin")
        parser.add_argument("--final-size", type=int, default=8)
        parser.add_argument("--final-players", type=int, default=None)
        parser.add_argument("--meetings", type=int, default=1)
        parser.add_argument("--rounds", type=int, default=None)
        parser.add_argument("--rules", default="", help="the rules text its page shows")

    def handle(self, *args: Any, **options: Any) -> None:
        staff = User.objects.filter(username=options["staff"], is_staff=True).first()
        if staff is None:
            raise CommandError(f"there is no staff user {options['staff']!r}")
        now = timezone.now()
        try:
            competition = competition_create(
                creator=staff,
                name=options["name"],
                game=options["game"],
                player_counts=options["players"],
                opens=when(options["opens"], now),
                freezes=when(options["freezes"], now),
                final_starts=when(options["final"], now),
                final_format=options["format"],
                final_size=options["final_size"],
                final_players=options["final_players"],
                final_meetings=options["meetings"],
                final_rounds=options["rounds"],
                rules=options["rules"],
            )
        except (ValidationError, ValueError) as error:
            raise CommandError(str(getattr(error, "message", error))) from None
        self.stdout.write(f"competition {competition.id}: {competition.name}")
