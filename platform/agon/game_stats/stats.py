"""A game's statistics as one JSON-ready document, counted in the database and kept in
the shared cache.

From the game's ranked matches (finished, public), the latest AGON_GAME_STATS_MATCHES of
them at most (a window that bounds the cost on a large table), by player count:

- each seat's results: matches, wins, shared first places, win rate and its 95 % interval
  (agon.game_stats.summary), beside the rate every seat would have if none had an edge;
- the distribution of the matches' lengths in turns and of the seats' final scores;
- the most frequent opening moves (a seat's first action) and how the seats that made
  them did.

Every count is a GROUP BY in the database: the rows that come back are one per seat and
outcome, per score or length met, per opening met, never one per match. Lengths and
openings come from the matches' digests (agon.game_stats.digests), made in the
background: a match finished since the last digest run counts in the rest only, and the
document says how many of its matches were digested. The document is made at most once
per AGON_GAME_STATS_CACHE_SECONDS per game.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import (
    BooleanField,
    Case,
    Count,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from agon.game_stats.digests import ranked_matches
from agon.game_stats.models import MatchDigest, SeatOpening
from agon.game_stats.summary import Outcomes, histogram, mean_of, median_of
from agon.matches.models import Match, MatchSeat

CACHE_KEY = "agon:game-stats:1:"
TOP_OPENINGS = 10


def game_stats_kept(game: str) -> dict[str, Any]:
    """`game_stats(game)`, from the shared cache when it was made lately."""
    seconds = settings.AGON_GAME_STATS_CACHE_SECONDS
    if seconds <= 0:
        return game_stats(game)
    kept = cache.get(CACHE_KEY + game)
    if isinstance(kept, dict):
        return kept
    made = game_stats(game)
    cache.set(CACHE_KEY + game, made, seconds)
    return made


def counted_matches(game: str) -> QuerySet[Match]:
    """The ranked matches of `game` the statistics count: the latest
    AGON_GAME_STATS_MATCHES."""
    matches = ranked_matches(game)
    cap = settings.AGON_GAME_STATS_MATCHES
    oldest = list(matches.order_by("-id").values_list("id", flat=True)[cap - 1 : cap])
    return matches.filter(id__gte=oldest[0]) if oldest else matches


def _with_outcome(seats: QuerySet[Any], seat_path: str) -> QuerySet[Any]:
    """`seats` (rows of MatchSeat, or rows reaching one by `seat_path`) with whether the
    seat was first and how many seats of its match were."""
    prefix = f"{seat_path}__" if seat_path else ""
    firsts = (
        MatchSeat.objects.filter(match_id=OuterRef(f"{prefix}match_id"), rank=1)
        .values("match_id")
        .annotate(count=Count("id"))
        .values("count")
    )
    annotated: QuerySet[Any] = seats.annotate(
        first=Case(
            When(**{f"{prefix}rank": 1}, then=Value(True)),
            default=Value(False),
            output_field=BooleanField(),
        ),
        firsts=Coalesce(Subquery(firsts, output_field=IntegerField()), Value(0)),
    )
    return annotated


def _outcomes(rows: Iterable[Mapping[str, Any]], key: tuple[str, ...]) -> dict[Any, Outcomes]:
    found: dict[Any, Outcomes] = defaultdict(Outcomes)
    for row in rows:
        which = tuple(row[name] for name in key)
        found[which] = found[which].add(first=row["first"], firsts=row["firsts"], count=row["n"])
    return found


def _results(outcomes: Outcomes) -> dict[str, Any]:
    interval = outcomes.interval()
    return {
        "played": outcomes.played,
        "wins": outcomes.wins,
        "shared_firsts": outcomes.shared,
        "win_rate": outcomes.rate,
        "interval": list(interval) if interval else None,
    }


def _distribution(counts: list[tuple[int, int]]) -> dict[str, Any]:
    return {
        "count": sum(count for _, count in counts),
        "mean": mean_of(counts),
        "median": median_of(counts),
        "low": min((value for value, _ in counts), default=None),
        "high": max((value for value, _ in counts), default=None),
        "bins": [
            {"low": part.low, "high": part.high, "count": part.count} for part in histogram(counts)
        ],
    }


def game_stats(game: str) -> dict[str, Any]:
    """The statistics of `game`'s ranked matches (see the module's text)."""
    matches = counted_matches(game)
    match_counts = dict(
        matches.values("players").annotate(n=Count("id")).values_list("players", "n")
    )
    digested = dict(
        MatchDigest.objects.filter(match__in=matches)
        .values("match__players")
        .annotate(n=Count("match_id"), read=Count("match_id", filter=Q(turns__isnull=False)))
        .values_list("match__players", "read")
    )
    seats = _outcomes(
        _with_outcome(MatchSeat.objects.filter(match__in=matches), "")
        .values("match__players", "seat", "first", "firsts")
        .annotate(n=Count("id")),
        ("match__players", "seat"),
    )
    scores: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for players, score, count in (
        MatchSeat.objects.filter(match__in=matches, score__isnull=False)
        .values("match__players", "score")
        .annotate(n=Count("id"))
        .values_list("match__players", "score", "n")
    ):
        if score is not None:
            scores[players].append((score, count))
    turns: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for players, length, count in (
        MatchDigest.objects.filter(match__in=matches, turns__isnull=False)
        .values("match__players", "turns")
        .annotate(n=Count("match_id"))
        .values_list("match__players", "turns", "n")
    ):
        if length is not None:
            turns[players].append((length, count))
    openings = _outcomes(
        _with_outcome(SeatOpening.objects.filter(seat__match__in=matches), "seat")
        .values("seat__match__players", "label", "first", "firsts")
        .annotate(n=Count("seat_id")),
        ("seat__match__players", "label"),
    )
    by_players = []
    for players in sorted(match_counts):
        seat_results = sorted(
            (seat, outcomes) for (count, seat), outcomes in seats.items() if count == players
        )
        frequent = sorted(
            (
                (label, outcomes)
                for (count, label), outcomes in openings.items()
                if count == players
            ),
            key=lambda item: (-item[1].played, item[0]),
        )[:TOP_OPENINGS]
        by_players.append(
            {
                "players": players,
                "matches": match_counts[players],
                "digested": digested.get(players, 0),
                "even_rate": 1 / players,
                "seats": [{"seat": seat, **_results(outcomes)} for seat, outcomes in seat_results],
                "turns": _distribution(sorted(turns[players])),
                "scores": _distribution(sorted(scores[players])),
                "openings": [{"move": label, **_results(outcomes)} for label, outcomes in frequent],
            }
        )
    return {
        "game": game,
        "matches": sum(match_counts.values()),
        "window": settings.AGON_GAME_STATS_MATCHES,
        "computed": timezone.now().isoformat(),
        "cache_seconds": settings.AGON_GAME_STATS_CACHE_SECONDS,
        "player_counts": by_players,
    }
