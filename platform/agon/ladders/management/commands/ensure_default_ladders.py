"""`django-admin ensure_default_ladders`: one ladder per game and player count, as `agon up`
makes them; run after `migrate` when a deployment starts (deploy/compose.yaml)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from agon.ladders.services import ladder_ensure_defaults


class Command(BaseCommand):
    help = "Create the default ladders (one per game and player count) that are missing."

    def handle(self, *args: Any, **options: Any) -> None:
        ladders = ladder_ensure_defaults()
        self.stdout.write(
            f"{len(ladders)} ladders: " + ", ".join(ladder.name for ladder in ladders)
        )
