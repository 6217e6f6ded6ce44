"""`django-admin ensure_default_ladders`: one ladder per game and player count, as `agon up`
makes them, and the anchors on them (agon.ladders.anchors); run after `migrate` when a
deployment starts (deploy/compose.yaml)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from agon.ladders.anchors import anchors_ensure
from agon.ladders.services import ladder_ensure_defaults


class Command(BaseCommand):
    help = (
        "Create the default ladders (one per game and player count) that are missing, "
        "and enter the anchor bots (AGON_LADDER_ANCHORS) on every active ladder."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        ladders = ladder_ensure_defaults()
        self.stdout.write(
            f"{len(ladders)} ladders: " + ", ".join(ladder.name for ladder in ladders)
        )
        anchors = anchors_ensure()
        if anchors:
            names = sorted({version.builtin for version in anchors})
            self.stdout.write(f"anchors on every ladder: {', '.join(names)}")
