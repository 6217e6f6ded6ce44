"""A game's statistics as one JSON-ready document, counted in the database and kept in
the shared cache.

From the game's ranked matches (finished, public), the latest AGON_GAME_STATS_MATCHES of
them at most (a window that bounds the cost on a large table), by player count:

- each seat's results: matches, wins, shared first places, win rate and its 95 % interval
  (agon.game_stats.summary), beside the rate every seat would have if none had an edge;
- the results of the seat that moved first, whichever it was (Megalopolis draws its
  first player; the other games start with seat 0), from the digested matches;
- the distribution of the matches' lengths in turns and of the seats' final scores;
- the most frequent opening moves (a seat's first action) and how the seats that made
  them did.

Every count is a GROUP BY in the database: the rows that come back are one per seat and
outcome, per score or length met, per opening met, never one per match; six queries in
all. Lengths and
openings come from the matches' digests (agon.game_stats.digests), made in the
background: a match finished since the last digest run counts in the rest only, and the
document says how many of its matches were digested. The document is made at most once
per AGON_GAME_STATS_CACHE_SECONDS per game, by one reader (`game_stats_kept`).
"""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import Count, QuerySet
from django.utils import timezone

from agon.game_stats.digests import ranked_matches
from agon.game_stats.models import MatchDigest, SeatOpening
from agon.game_stats.summary import Outcomes, histogram, mean_of, median_of
from agon.matches.models import Match, MatchSeat

CACHE_KEY = "agon:game-stats:2:"
TOP_OPENINGS = 10
KEPT_STALE = 12
"""A document is kept this many times its fresh time, served while one reader remakes it."""
MAKING_SECONDS = 60
"""How long one reader may take to remake a stale document before another tries."""


def game_stats_kept(game: str) -> dict[str, Any]:
    """`game_stats(game)`, from the shared cache when it was made lately.

    When the kept document is older than AGON_GAME_STATS_CACHE_SECONDS, the first reader
    to claim the remaking makes it again; every other reader meanwhile is served the old
    one, so that a popular page's expiry costs one count, not one per reader. Only a game
    with no document kept at all (the first view, or none for KEPT_STALE times the fresh
    time) is counted by every reader who arrives before it is made.
    """
    seconds = settings.AGON_GAME_STATS_CACHE_SECONDS
    if seconds <= 0:
        return game_stats(game)
    key = CACHE_KEY + game
    kept = cache.get(key)
    if isinstance(kept, dict):
        document: dict[str, Any] = kept["document"]
        if time.time() < kept["fresh_until"] or not cache.add(key + ":making", 1, MAKING_SECONDS):
            return document
    made = game_stats(game)
    cache.set(key, {"document": made, "fresh_until": time.time() + seconds}, seconds * KEPT_STALE)
    cache.delete(key + ":making")
    return made


def counted_matches(game: str) -> tuple[QuerySet[Match], int]:
    """The ranked matches of `game` the statistics count, the latest
    AGON_GAME_STATS_MATCHES, and the lowest id they may have: the seats, digests and
    openings are read from that id on (a range of their match index), so that the cost
    follows the window, not the table."""
    matches = ranked_matches(game)
    cap = settings.AGON_GAME_STATS_MATCHES
    oldest = list(matches.order_by("-id").values_list("id", flat=True)[cap - 1 : cap])
    return (matches.filter(id__gte=oldest[0]), oldest[0]) if oldest else (matches, 0)


def _outcome_sql(
    matches: QuerySet[Match], oldest: int, *, by_opening: bool
) -> tuple[str, list[Any]]:
    """Counts of seats (or of openings) of `matches` by player count, seat (or opening
    and when the seat first acted), whether the seat was first, and how many seats of
    its match were: one pass over the seats, the firsts of a match counted by a window
    over its seats (a subquery per seat cost twice as much on 20,000 matches under
    load)."""
    ids, params = matches.values("id").query.sql_with_params()
    seat_table, match_table = MatchSeat._meta.db_table, Match._meta.db_table
    # Table names from the models, the matches' SQL and parameters from the ORM.
    inner = (
        "SELECT m.players AS players, s.seat AS seat, s.id AS seat_id, "  # noqa: S608
        "CASE WHEN s.rank = 1 THEN 1 ELSE 0 END AS first, "
        "SUM(CASE WHEN s.rank = 1 THEN 1 ELSE 0 END) OVER (PARTITION BY s.match_id) AS firsts "
        f'FROM "{seat_table}" s JOIN "{match_table}" m ON m.id = s.match_id '
        f"WHERE s.match_id >= %s AND s.match_id IN ({ids})"
    )
    if by_opening:
        opening_table = SeatOpening._meta.db_table
        return (
            "SELECT outcome.players, o.label, o.position, outcome.first, outcome.firsts, "  # noqa: S608
            f'COUNT(*) FROM ({inner}) outcome JOIN "{opening_table}" o '
            "ON o.seat_id = outcome.seat_id "
            "GROUP BY outcome.players, o.label, o.position, outcome.first, outcome.firsts",
            [oldest, *params],
        )
    return (
        "SELECT players, seat, first, firsts, COUNT(*) "  # noqa: S608
        f"FROM ({inner}) outcome GROUP BY players, seat, first, firsts",
        [oldest, *params],
    )


def _rows(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def _seat_outcomes(matches: QuerySet[Match], oldest: int) -> dict[tuple[int, int], Outcomes]:
    """Outcomes by (player count, seat)."""
    found: dict[tuple[int, int], Outcomes] = defaultdict(Outcomes)
    for players, seat, first, firsts, count in _rows(
        *_outcome_sql(matches, oldest, by_opening=False)
    ):
        found[players, seat] = found[players, seat].add(
            first=bool(first), firsts=int(firsts), count=count
        )
    return found


def _opening_outcomes(
    matches: QuerySet[Match], oldest: int
) -> tuple[dict[tuple[int, str], Outcomes], dict[int, Outcomes]]:
    """Outcomes by (player count, opening), and of the seats that moved first by player
    count (of the digested matches)."""
    openings: dict[tuple[int, str], Outcomes] = defaultdict(Outcomes)
    movers: dict[int, Outcomes] = defaultdict(Outcomes)
    for players, label, position, first, firsts, count in _rows(
        *_outcome_sql(matches, oldest, by_opening=True)
    ):
        openings[players, label] = openings[players, label].add(
            first=bool(first), firsts=int(firsts), count=count
        )
        if position == 0:
            movers[players] = movers[players].add(
                first=bool(first), firsts=int(firsts), count=count
            )
    return openings, movers


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
    matches, oldest = counted_matches(game)
    match_counts = dict(
        matches.values("players").annotate(n=Count("id")).values_list("players", "n")
    )
    seats = _seat_outcomes(matches, oldest)
    scores: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for players, score, count in (
        MatchSeat.objects.filter(match_id__gte=oldest, match__in=matches, score__isnull=False)
        .values("match__players", "score")
        .annotate(n=Count("id"))
        .values_list("match__players", "score", "n")
    ):
        if score is not None:
            scores[players].append((score, count))
    turns: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for players, length, count in (
        MatchDigest.objects.filter(match_id__gte=oldest, match__in=matches, turns__isnull=False)
        .values("match__players", "turns")
        .annotate(n=Count("match_id"))
        .values_list("match__players", "turns", "n")
    ):
        if length is not None:
            turns[players].append((length, count))
    openings, first_movers = _opening_outcomes(matches, oldest)
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
                "digested": sum(count for _, count in turns[players]),
                "even_rate": 1 / players,
                "seats": [{"seat": seat, **_results(outcomes)} for seat, outcomes in seat_results],
                "first_mover": _results(first_movers[players]) if players in first_movers else None,
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
