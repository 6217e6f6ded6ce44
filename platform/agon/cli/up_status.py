"""What `agon up` tells the terminal about the platform as it runs: news, not a
dashboard. Every few seconds it takes a `Snapshot` (the matches so far and each ladder's
settled leader) and prints only what changed that a watcher cares about (`news`): the
first ranked match and round numbers of them, matches that failed, a ladder's new leader
once its rating is settled; and at most every SUMMARY_SECONDS one summary line, when
something moved. A ladder nobody has played, or whose top bot is still provisional, says
nothing. (It printed a six-line block every 20 s before, about 1,000 lines an hour.)

Imported by `agon up` once Django is set up (its models load with this module).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Count

from agon.ladders.models import LEADERBOARD_ORDER, Ladder, Rating
from agon.matches.models import Match
from engine.registry import UnknownGame, get_game

SUMMARY_SECONDS = 600.0
"""The summary line is printed at most this often (and only when the counts moved)."""
MILESTONES = (1, 10, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 25_000, 50_000, 100_000)
"""Ranked matches played that earn a line of their own."""


@dataclass(frozen=True)
class Leader:
    bot: str
    shown: str
    games: int


@dataclass(frozen=True)
class Snapshot:
    played: int = 0
    ranked: int = 0
    running: int = 0
    queued: int = 0
    failed: int = 0
    leaders: dict[str, Leader] = field(default_factory=dict)
    """Ladder name -> its first bot, for the ladders whose first bot is settled."""

    def summary(self) -> str:
        return (
            f"{self.played} matches played ({self.ranked} ranked), {self.running} running, "
            f"{self.queued} queued, {self.failed} failed"
        )

    def moved(self, other: Snapshot) -> bool:
        return (self.played, self.failed) != (other.played, other.failed)


def news(before: Snapshot, after: Snapshot) -> list[str]:
    """The lines worth printing about what changed from `before` to `after`."""
    lines = []
    if bisect.bisect_right(MILESTONES, after.ranked) > bisect.bisect_right(
        MILESTONES, before.ranked
    ):
        lines.append(after.summary())
    if after.failed > before.failed:
        more = after.failed - before.failed
        lines.append(
            f"{more} more match{'es' if more > 1 else ''} failed ({after.failed} in all): "
            "the Matches page and the log say why"
        )
    for ladder, leader in after.leaders.items():
        previous = before.leaders.get(ladder)
        if previous is None or previous.bot != leader.bot:
            lines.append(f"{ladder}: {leader.bot} leads, {leader.shown} after {leader.games} games")
    return lines


def snapshot() -> Snapshot:
    """The platform as it is now, read from the database."""
    try:
        counts = dict(
            Match.objects.order_by()
            .values_list("status")
            .annotate(n=Count("id"))
            .values_list("status", "n")
        )
        ranked = Match.objects.filter(kind=Match.Kind.RANKED, status=Match.Status.FINISHED)
        return Snapshot(
            played=counts.get(Match.Status.FINISHED, 0),
            ranked=ranked.count(),
            running=counts.get(Match.Status.RUNNING, 0),
            queued=counts.get(Match.Status.QUEUED, 0),
            failed=counts.get(Match.Status.FAILED, 0),
            leaders=_leaders(),
        )
    finally:
        connection.close()


def _leaders() -> dict[str, Leader]:
    leaders = {}
    rated = Ladder.objects.filter(active=True, open=True, ratings__active=True).distinct()
    for ladder in rated.order_by("game", "players"):
        top = (
            Rating.objects.filter(ladder=ladder, active=True, games__gt=0)
            .select_related("bot")
            .order_by(*LEADERBOARD_ORDER)
            .first()
        )
        if top is not None and top.rankable:
            label = f"{_title(ladder.game)} {ladder.players}p"
            leaders[label] = Leader(top.bot.name, top.shown, top.games)
    return leaders


def _title(game: str) -> str:
    try:
        return get_game(game).name
    except UnknownGame:
        return game
