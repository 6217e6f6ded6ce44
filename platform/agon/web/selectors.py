"""Reads for the web pages: each page's rows in a few queries (seats, bots and owners
prefetched), built on the apps' models only."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Prefetch, Q, QuerySet

from agon.bots.models import Bot, BotVersion
from agon.ladders.models import Ladder, Rating, RatingChange
from agon.matches.models import Match, MatchSeat
from engine.replay import Replay, ReplayError


def _seats() -> Prefetch[Any]:
    return Prefetch(
        "seats",
        queryset=MatchSeat.objects.select_related("version__bot__owner").order_by("seat"),
    )


def matches_with_seats() -> QuerySet[Match]:
    return Match.objects.select_related("ladder").prefetch_related(_seats())


# --- home ---------------------------------------------------------------------------------


@dataclass
class LadderSummary:
    ladder: Ladder
    rated: int
    leaders: list[Rating]


def ladders_with_leaders(*, top: int = 3) -> list[LadderSummary]:
    """The active ladders with the number of bots rated and the best `top` of them."""
    best = Rating.objects.filter(active=True).select_related("bot__owner").order_by("-rating", "id")
    ladders = (
        Ladder.objects.filter(active=True)
        .annotate(rated=Count("ratings", filter=Q(ratings__active=True)))
        .order_by("game", "players", "id")
    )
    return [
        LadderSummary(ladder, ladder.rated, list(best.filter(ladder=ladder)[:top]))
        for ladder in ladders
    ]


def live_matches(*, limit: int = 10) -> list[Match]:
    return list(matches_with_seats().filter(status=Match.Status.RUNNING).order_by("-id")[:limit])


def recent_matches(*, limit: int = 10) -> list[Match]:
    return list(
        matches_with_seats().filter(status=Match.Status.FINISHED).order_by("-finished", "-id")[
            :limit
        ]
    )


# --- match lists --------------------------------------------------------------------------


def match_list(
    *,
    game: str | None = None,
    ladder_id: int | None = None,
    bot_id: int | None = None,
    status: str | None = None,
) -> QuerySet[Match]:
    matches = matches_with_seats()
    if game:
        matches = matches.filter(game=game)
    if ladder_id is not None:
        matches = matches.filter(ladder_id=ladder_id)
    if bot_id is not None:
        matches = matches.filter(
            id__in=MatchSeat.objects.filter(version__bot_id=bot_id).values("match_id")
        )
    if status:
        matches = matches.filter(status=status)
    return matches.order_by("-id")


# --- leaderboards -------------------------------------------------------------------------


def ladder_get(*, ladder_id: int) -> Ladder | None:
    return Ladder.objects.filter(id=ladder_id).first()


def leaderboard(*, ladder: Ladder) -> QuerySet[Rating]:
    return (
        Rating.objects.filter(ladder=ladder, active=True)
        .select_related("bot__owner", "version")
        .order_by("-rating", "id")
    )


# --- bots ---------------------------------------------------------------------------------


@dataclass
class RatingHistory:
    ladder: Ladder
    rating: Rating | None
    changes: list[RatingChange] = field(default_factory=list)


@dataclass
class BotRecord:
    played: int
    wins: int
    faults: int


def bot_get(*, bot_id: int) -> Bot | None:
    return (
        Bot.objects.select_related("owner")
        .prefetch_related(Prefetch("versions", queryset=BotVersion.objects.order_by("number")))
        .filter(id=bot_id)
        .first()
    )


def rating_histories(*, bot: Bot) -> list[RatingHistory]:
    """Per ladder the bot has a rating on (or had changes on): its rating changes in order."""
    ratings = {r.ladder_id: r for r in Rating.objects.filter(bot=bot).select_related("ladder")}
    histories: dict[int, RatingHistory] = {
        ladder_id: RatingHistory(rating.ladder, rating) for ladder_id, rating in ratings.items()
    }
    for change in RatingChange.objects.filter(bot=bot).select_related("ladder").order_by("id"):
        history = histories.get(change.ladder_id)
        if history is None:
            history = histories[change.ladder_id] = RatingHistory(change.ladder, None)
        history.changes.append(change)
    return sorted(histories.values(), key=lambda h: (h.ladder.players, h.ladder.id))


def bot_record(*, bot: Bot) -> BotRecord:
    seats = MatchSeat.objects.filter(version__bot=bot, match__status=Match.Status.FINISHED)
    counts = seats.aggregate(
        played=Count("id"),
        wins=Count("id", filter=Q(rank=1)),
        faults=Count("id", filter=~Q(fault="")),
    )
    return BotRecord(counts["played"], counts["wins"], counts["faults"])


def bot_matches(*, bot: Bot, limit: int = 20) -> list[Match]:
    return list(match_list(bot_id=bot.id)[:limit])


def bots_of(*, owner: User) -> list[Bot]:
    """The owner's bots, newest first, with their versions (newest first)."""
    return list(
        Bot.objects.filter(owner=owner)
        .prefetch_related(Prefetch("versions", queryset=BotVersion.objects.order_by("-number")))
        .order_by("-id")
    )


def bot_of_owner(*, owner: User, bot_id: int) -> Bot | None:
    return (
        Bot.objects.filter(owner=owner, id=bot_id)
        .prefetch_related(Prefetch("versions", queryset=BotVersion.objects.order_by("-number")))
        .first()
    )


def version_states(*, owner: User) -> dict[str, str]:
    """Each version of the owner's bots: its status (what the my-bots page polls)."""
    return {
        str(version_id): status
        for version_id, status in BotVersion.objects.filter(bot__owner=owner).values_list(
            "id", "status"
        )
    }


# --- one match ----------------------------------------------------------------------------


def match_get(*, match_id: int) -> Match | None:
    return matches_with_seats().filter(id=match_id).first()


def match_rating_changes(*, match: Match) -> dict[int, RatingChange]:
    """The match's rating changes by bot id."""
    return {change.bot_id: change for change in RatingChange.objects.filter(match=match)}


def match_result_details(*, match: Match) -> list[Any]:
    """The game's score breakdown per seat, from the stored replay (empty without one)."""
    if match.status != Match.Status.FINISHED or not match.replay:
        return []
    try:
        with match.replay.open("rb") as stored:
            replay = Replay.from_json(json.loads(stored.read()))
    except (OSError, ValueError, ReplayError):
        return []
    details = replay.result.get("details")
    return details if isinstance(details, list) else []


def seat_of_owner(*, owner: User, match_id: int, seat: int) -> MatchSeat | None:
    """A seat of a match whose bot belongs to `owner`; None for anybody else's."""
    return (
        MatchSeat.objects.select_related("match", "version__bot")
        .filter(match_id=match_id, seat=seat, version__bot__owner=owner)
        .first()
    )
