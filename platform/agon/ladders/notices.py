"""What a bot's owner is told of its ratings (agon.notifications): a new hundred reached
on a ladder, once settled (not provisional). Each hundred is told once per bot and
ladder: a rating that falls back and climbs again is not news twice."""

from __future__ import annotations

import math

from django.urls import reverse

from agon.ladders.models import Ladder, Rating
from agon.notifications.services import notify
from agon.ratings.stored import initial_value

STEP = 100
"""A milestone is each multiple of this above the rating every bot starts with."""


def milestone_reached(before: float, after: float, *, settled_before: bool) -> int | None:
    """The highest multiple of STEP that a rating going from `before` to `after` reached
    for the first time this match, above the starting rating; None for none. A rating
    settling now counts from the start (what it reached while provisional is news now)."""
    start = math.floor(initial_value() / STEP) * STEP
    reached = math.floor(after / STEP) * STEP
    had = math.floor(before / STEP) * STEP if settled_before else start
    if reached > had and reached > start:
        return reached
    return None


def rating_milestone_notify(row: Rating, ladder: Ladder, milestone: int) -> None:
    notify(
        user_id=row.bot.owner_id,
        kind="rating_milestone",
        key=f"{ladder.id}:{row.bot_id}:{milestone}",
        title=f"{row.bot.name} reached {milestone} on {ladder.name}",
        text=f"Its rating is {row.rating:.0f} after {row.games} ranked games on this ladder.",
        path=reverse("web:ladder", args=[ladder.id]),
        data={
            "bot": row.bot_id,
            "bot_name": row.bot.name,
            "ladder": ladder.id,
            "ladder_name": ladder.name,
            "milestone": milestone,
            "rating": row.rating,
        },
    )
