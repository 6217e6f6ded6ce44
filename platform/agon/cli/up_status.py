"""The status lines of `agon up`: the matches so far, then for each game each ladder's
share of the workers lately (the matches it played over AGON_FAIR_SHARE_SECONDS, which
matchmaking evens out by games per bot) and its leader.

Imported by `agon up` once Django is set up (its models load with this module).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Count
from django.utils import timezone

from agon.ladders.models import LEADERBOARD_ORDER, Ladder, Rating
from agon.ladders.selectors import ranked_matches_since
from agon.matches.models import Match
from engine.registry import UnknownGame, get_game


def status_lines() -> list[str]:
    """Matches so far, then one line per game with a cell per ladder with bots:
    `2p 14: random 1523 (41)`, its ranked matches lately, then its leader's name,
    rating and games."""
    try:
        return [_matches_line(), *_ladder_lines()]
    finally:
        connection.close()


def _matches_line() -> str:
    counts = dict(
        Match.objects.order_by()
        .values_list("status")
        .annotate(n=Count("id"))
        .values_list("status", "n")
    )
    ranked = Match.objects.filter(kind=Match.Kind.RANKED, status=Match.Status.FINISHED)
    return (
        f"{counts.get(Match.Status.FINISHED, 0)} matches played "
        f"({ranked.count()} ranked), {counts.get(Match.Status.RUNNING, 0)} running, "
        f"{counts.get(Match.Status.QUEUED, 0)} queued, "
        f"{counts.get(Match.Status.FAILED, 0)} failed; per ladder, ranked matches in the "
        f"last {_period(settings.AGON_FAIR_SHARE_SECONDS)}: leader rating (games)"
    )


def _ladder_lines() -> list[str]:
    since = timezone.now() - timedelta(seconds=settings.AGON_FAIR_SHARE_SECONDS)
    recent = ranked_matches_since(since)
    cells: dict[str, list[str]] = {}
    rated = Ladder.objects.filter(active=True, ratings__active=True).distinct()
    for ladder in rated.order_by("game", "players"):
        top = (
            Rating.objects.filter(ladder=ladder, active=True, games__gt=0)
            .select_related("bot")
            .order_by(*LEADERBOARD_ORDER)
            .first()
        )
        # The example bots are called `<game>-<name>`: the game is the line's already.
        name = top.bot.name.removeprefix(f"{ladder.game}-") if top else ""
        leader = f"{name} {top.shown} ({top.games})" if top else "-"
        cells.setdefault(ladder.game, []).append(
            f"{ladder.players}p {recent.get(ladder.id, 0)}: {leader}"
        )
    if not cells:
        return ["  no ladder has bots yet"]
    return [f"  {_title(game)}: " + " | ".join(row) for game, row in cells.items()]


def _title(game: str) -> str:
    try:
        return get_game(game).name
    except UnknownGame:
        return game


def _period(seconds: int) -> str:
    return f"{seconds // 60} min" if seconds % 60 == 0 else f"{seconds} s"
