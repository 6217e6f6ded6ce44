"""Ladder reads: the ladders, their leaderboards and a page of standings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from agon.bots.models import Bot, BotVersion
from agon.ladders.models import Ladder, Rating


def ladder_list() -> QuerySet[Ladder]:
    """Every ladder, with the number of bots rated on it (`bots`), counted per ladder in
    the `leaderboard` index rather than by joining every rating."""
    rated = (
        Rating.objects.filter(ladder=OuterRef("pk"), active=True)
        .order_by()
        .values("ladder")
        .annotate(bots=Count("id"))
        .values("bots")
    )
    return Ladder.objects.annotate(bots=Coalesce(Subquery(rated), 0)).order_by(
        "game", "players", "id"
    )


def ladder_get(*, ladder_id: int) -> Ladder | None:
    return Ladder.objects.filter(id=ladder_id).first()


def leaderboard(*, ladder: Ladder) -> QuerySet[Rating]:
    """The active ratings of a ladder, best first, in the order of the `leaderboard` index;
    the bots' names and versions from `standings`, for a page of them.

    The page is not joined to them: joined, a deep page would join every row it skips,
    and the planner then scans whole tables."""
    return (
        Rating.objects.filter(ladder=ladder, active=True)
        .order_by("-rating", "id")
        .only("bot_id", "version_id", "rating", "games", "version_games", "wins")
    )


@dataclass(frozen=True)
class Standing:
    """A row of a leaderboard."""

    rank: int
    bot: int
    name: str
    owner: str
    version: int
    rating: float
    games: int
    wins: int
    provisional: bool


def standings(ratings: Sequence[Rating], *, first_rank: int) -> list[Standing]:
    """A page of `leaderboard` (its first row at `first_rank`) with the bots' names, owners
    and version numbers: plain rows in two queries on primary keys. Prefetched, Django
    built a model per bot, owner and version, and (5.2) compiled an expression per key."""
    bots = {
        bot_id: (name, owner)
        for bot_id, name, owner in Bot.objects.filter(id__in={rating.bot_id for rating in ratings})
        .order_by()
        .values_list("id", "name", "owner__username")
    }
    numbers = dict(
        BotVersion.objects.filter(id__in={rating.version_id for rating in ratings})
        .order_by()
        .values_list("id", "number")
    )
    return [
        Standing(
            rank=rank,
            bot=rating.bot_id,
            name=bots[rating.bot_id][0],
            owner=bots[rating.bot_id][1],
            version=numbers[rating.version_id],
            rating=rating.rating,
            games=rating.games,
            wins=rating.wins,
            provisional=rating.provisional,
        )
        for rank, rating in enumerate(ratings, start=first_rank)
    ]
