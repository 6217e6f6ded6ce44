"""Replaying a ladder's stored results through the current rating code (after a change of
the rating system, or a fix of it), and the offline fit beside the live ratings.

`ladder_recompute` starts every bot of the ladder afresh and rates each finished ranked
match again, in the order they finished, as `ratings_apply` did: each seat's rating aged
by the time since its bot's previous match, a bot's new version starting from
`ratings.new_version`, the same rule for ties. Only ranked matches move ratings, as live.
It then rewrites the ladder's ratings and every rating change (unless `dry_run`) and
says how many bots' ranks moved.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from agon.ladders.models import Ladder, Rating, RatingChange
from agon.matches.models import Match, MatchSeat
from agon.ratings.stored import RATING_CHANGE_COLUMNS, SETTLED_COLUMNS
from competition import ratings
from competition.ratings.fit import bradley_terry


@dataclass
class _Standing:
    """A bot's rating as the replay goes."""

    rating: ratings.RatingEstimate = field(default_factory=ratings.initial)
    version_id: int | None = None
    at: datetime | None = None
    games: int = 0
    version_games: int = 0
    wins: int = 0
    shared_firsts: int = 0


@dataclass(frozen=True)
class Recomputed:
    ladder: Ladder
    matches: int
    """Ranked matches replayed."""
    bots: int
    ranks_moved: int
    """Bots whose rank (or being unranked) differs from before."""
    before: dict[int, tuple[int | None, float]]
    """Bot id -> its rank (None while provisional) and rating value, before."""
    after: dict[int, tuple[int | None, float]]
    dry_run: bool


def _ranked_matches(ladder: Ladder) -> list[Match]:
    return list(
        Match.objects.filter(ladder=ladder, kind=Match.Kind.RANKED, status=Match.Status.FINISHED)
        .exclude(finished=None)
        .order_by("finished", "id")
    )


def _board(rows: dict[int, ratings.RatingEstimate]) -> dict[int, tuple[int | None, float]]:
    """Bot id -> rank (the leaderboards' order: ranking value, then value, then bot id) and
    rating value."""

    def best_first(bot: int) -> tuple[float, float, int]:
        return (-ratings.ranking_value(rows[bot]), -rows[bot].value, bot)

    return {
        bot: (place, rows[bot].value)
        for place, bot in enumerate(sorted(rows, key=best_first), start=1)
    }


@transaction.atomic
def ladder_recompute(
    *,
    ladder: Ladder,
    dry_run: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Recomputed:
    """Rate the ladder's finished ranked matches again with the current rating system;
    `progress(done, total)` after each match."""
    stored = {row.bot_id: row for row in Rating.objects.select_for_update().filter(ladder=ladder)}
    before = _board({bot: row.current for bot, row in stored.items()})
    matches = _ranked_matches(ladder)
    seats_of: dict[int, list[MatchSeat]] = {}
    for seat in MatchSeat.objects.filter(match__in=matches).order_by("match_id", "seat"):
        seats_of.setdefault(seat.match_id, []).append(seat)
    changes = {
        (change.match_id, change.bot_id): change
        for change in RatingChange.objects.filter(ladder=ladder)
    }
    standings: dict[int, _Standing] = {}
    versions_bot = dict(
        MatchSeat.objects.filter(match__in=matches)
        .exclude(version=None)
        .values_list("version_id", "version__bot_id")
    )
    changed: list[RatingChange] = []
    for done, match in enumerate(matches, start=1):
        seats = [seat for seat in seats_of.get(match.id, []) if seat.version_id is not None]
        if len(seats) != len(match.ranks):
            continue  # not a rated table (a builtin seat): live rating skipped it too
        assert match.finished is not None  # noqa: S101 - filtered above
        bots = [versions_bot[seat.version_id] for seat in seats if seat.version_id is not None]
        befores = []
        for bot, seat in zip(bots, seats, strict=True):
            standing = standings.setdefault(bot, _Standing())
            if standing.at is not None:
                idle = (match.finished - standing.at).total_seconds()
                standing.rating = ratings.aged(standing.rating, idle)
            if standing.version_id not in (None, seat.version_id):
                standing.rating = ratings.new_version(standing.rating)
                standing.version_games = 0
            standing.version_id = seat.version_id
            befores.append(standing.rating)
        games = [standings[bot].version_games for bot in bots]
        afters = ratings.update(befores, match.ranks, games)
        firsts = sum(rank == 1 for rank in match.ranks)
        for bot, rank, before_rating, after_rating, played in zip(
            bots, match.ranks, befores, afters, games, strict=True
        ):
            standing = standings[bot]
            change = changes.get((match.id, bot))
            if change is not None:
                change.record(before_rating, after_rating)
                change.provisional = ratings.is_provisional(before_rating, played)
                changed.append(change)
            standing.rating, standing.at = after_rating, match.finished
            standing.games += 1
            standing.version_games += 1
            standing.wins += int(rank == 1 and firsts == 1)
            standing.shared_firsts += int(rank == 1 and firsts > 1)
        if progress is not None:
            progress(done, len(matches))

    now = timezone.now()
    for bot, row in stored.items():
        standing = standings.get(bot, _Standing(version_id=row.version_id))
        rating = standing.rating
        if standing.version_id != row.version_id:  # a version that has not played yet
            rating = ratings.new_version(rating)
            standing.version_games = 0
        idle = (now - standing.at).total_seconds() if standing.at else 0.0
        row.settle(ratings.aged(rating, idle), games=standing.version_games, at=now)
        row.games, row.version_games = standing.games, standing.version_games
        row.wins, row.shared_firsts = standing.wins, standing.shared_firsts
    after = _board({bot: row.current for bot, row in stored.items()})
    if not dry_run:
        Rating.objects.bulk_update(
            list(stored.values()),
            [*SETTLED_COLUMNS, "games", "version_games", "wins", "shared_firsts"],
            batch_size=500,
        )
        RatingChange.objects.bulk_update(
            changed, [*RATING_CHANGE_COLUMNS, "provisional"], batch_size=500
        )
    else:
        transaction.set_rollback(True)
    return Recomputed(
        ladder=ladder,
        matches=len(matches),
        bots=len(stored),
        ranks_moved=sum(before[bot][0] != after[bot][0] for bot in stored),
        before=before,
        after=after,
        dry_run=dry_run,
    )


def ladder_fit(*, ladder: Ladder) -> dict[int, float]:
    """Bot id -> its strength by the offline Bradley-Terry fit of the ladder's finished
    ranked matches (`competition.ratings.fit`), on the Elo scale around the start rating."""
    matches = _ranked_matches(ladder)
    tables: dict[int, list[tuple[int, int]]] = {}
    for match_id, bot, seat in (
        MatchSeat.objects.filter(match__in=matches)
        .exclude(version=None)
        .order_by("match_id", "seat")
        .values_list("match_id", "version__bot_id", "seat")
    ):
        tables.setdefault(match_id, []).append((bot, seat))
    results = []
    for match in matches:
        seated = tables.get(match.id, [])
        if len(seated) == len(match.ranks):
            results.append(([bot for bot, _ in seated], [match.ranks[s] for _, s in seated]))
    return bradley_terry(results, centre=ratings.initial().value)
