"""Ladder reads: the ladders and their leaderboards."""

from __future__ import annotations

from django.db.models import Count, OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.functions import Coalesce

from agon.bots.models import Bot
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
    """The active ratings of a ladder, best first, in the order of the `leaderboard` index.

    Bots and versions are fetched for the page alone (prefetched, not joined): joined,
    a deep page would join every row it skips, and the planner then scans whole tables.
    """
    return (
        Rating.objects.filter(ladder=ladder, active=True)
        .order_by("-rating", "id")
        .prefetch_related(
            Prefetch("bot", queryset=Bot.objects.select_related("owner")),
            "version",
        )
    )
