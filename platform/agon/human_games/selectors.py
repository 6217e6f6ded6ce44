"""What the page of a human game reads: the turn it waits on, as things to click."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.utils import timezone

from agon.bots.models import Bot, BotVersion
from agon.human_games.targets import targets_for
from agon.matches.models import HumanTurn, Match


def human_seat_of(match: Match, user: User) -> int | None:
    """The user's seat in the human game, or None."""
    seat: int | None = match.seats.filter(human=user).values_list("seat", flat=True).first()
    return seat


def human_turn_shown(*, match: Match, user: User) -> dict[str, Any]:
    """The game as its player's page polls it: the status, and while the user's turn
    waits, the turn's number, the seconds left and the legal actions as steps. Only the
    seat's own player is shown its observation's facts (its hand is private)."""
    shown: dict[str, Any] = {"status": match.status, "turn": None}
    seat = human_seat_of(match, user)
    if seat is None or match.status != Match.Status.RUNNING:
        return shown
    turn = (
        HumanTurn.objects.filter(match=match, seat=seat, moved__isnull=True, expired=False)
        .order_by("-number")
        .first()
    )
    if turn is None:
        return shown
    left = (turn.deadline - timezone.now()).total_seconds()
    shown["turn"] = {
        "number": turn.number,
        "seconds_left": max(0.0, round(left, 1)),
        **targets_for(match.game, turn.observation, turn.legal).to_json(),
    }
    return shown


def human_opponents(*, game: str, user: User) -> QuerySet[Bot]:
    """The bots the user may play in `game`: those whose owner lets them play humans and
    the user's own, with an active version, not retired (the user's own may be)."""
    return (
        Bot.objects.filter(game=game, versions__status=BotVersion.Status.ACTIVE)
        .filter(Q(owner=user) | Q(human_games=True, retired__isnull=True))
        .select_related("owner")
        .distinct()
        .order_by("name", "id")
    )
