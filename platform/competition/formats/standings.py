"""Standings: points, then the tie-breaks a format names, FIDE's where they apply.

Every tie-break is computed pairwise, an opponent at a table of P counting 1/(P-1), so for
two players it is FIDE's own (Handbook C.07, tie-break regulations of 2023):
- buchholz: the sum over rounds of the opponents' points; a round the bot had a bye counts a
  virtual opponent with the bot's own points (article 16);
- buchholz_cut1: the same without the round that contributes least;
- sonneborn_berger: the points of each opponent times what the bot scored against it;
- direct_encounter: points scored in the games among the bots tied on points;
- wins: games won outright (byes are not won over the board).
Bots equal on points and every tie-break share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from competition.formats.core import Result, game_points, pairwise_scores

TIEBREAKS = ("buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter", "wins")


@dataclass(frozen=True)
class Standing:
    bot: int
    rank: int
    points: float
    tiebreaks: dict[str, float] = field(default_factory=dict)


def points_by_bot(entrants: int, results: Sequence[Result]) -> list[float]:
    points = [0.0] * entrants
    for result in results:
        for bot, scored in zip(result.game.bots, game_points(result.ranks), strict=True):
            points[bot] += scored
    return points


def pairwise_points(results: Sequence[Result]) -> dict[tuple[int, int], tuple[float, int]]:
    """(points, games) of a bot against an opponent, for each pair that has met: a game at a
    table of P counts 1/(P-1) of a point against each opponent, as the tie-breaks count it."""
    met: dict[tuple[int, int], tuple[float, int]] = {}
    for result in results:
        share = 1 / max(len(result.game.bots) - 1, 1)
        for bot, opponent, score in pairwise_scores(result):
            points, games = met.get((bot, opponent), (0.0, 0))
            met[(bot, opponent)] = (points + score * share, games + 1)
    return met


def tiebreak_values(
    entrants: int, results: Sequence[Result], names: Sequence[str]
) -> list[dict[str, float]]:
    points = points_by_bot(entrants, results)
    computed = {name: _TIEBREAK_FUNCTIONS[name](entrants, results, points) for name in names}
    return [{name: computed[name][bot] for name in names} for bot in range(entrants)]


def rank_standings(
    entrants: int,
    results: Sequence[Result],
    tiebreaks: Sequence[str],
    placement: Mapping[int, float] | None = None,
) -> list[Standing]:
    """Standings by placement first when given (a knockout's stage reached, lower is better),
    then points, then the tie-breaks in order."""
    points = points_by_bot(entrants, results)
    values = tiebreak_values(entrants, results, tiebreaks)

    def key(bot: int) -> tuple[float, ...]:
        place = float(placement[bot]) if placement is not None else 0.0
        return (place, -round(points[bot], 9), *(-round(values[bot][n], 9) for n in tiebreaks))

    order = sorted(range(entrants), key=lambda bot: (key(bot), bot))
    standings: list[Standing] = []
    for position, bot in enumerate(order):
        shared = standings and key(standings[-1].bot) == key(bot)
        rank = standings[-1].rank if shared else position + 1
        standings.append(Standing(bot, rank, points[bot], values[bot]))
    return standings


def _round_contributions(
    entrants: int, results: Sequence[Result], points: Sequence[float]
) -> list[list[float]]:
    """Per bot, what each round it took part in adds to its Buchholz: the mean over its
    games of that round of the opponents' points (its own points for a bye)."""
    sums: dict[tuple[int, int], float] = defaultdict(float)
    games: dict[tuple[int, int], int] = defaultdict(int)
    for result in results:
        bots = result.game.bots
        for bot in bots:
            key = (bot, result.game.round)
            games[key] += 1
            if result.game.is_bye:
                sums[key] += points[bot]
            else:
                sums[key] += sum(points[o] for o in bots if o != bot) / (len(bots) - 1)
    rounds: list[list[float]] = [[] for _ in range(entrants)]
    for (bot, _round), total in sorted(sums.items()):
        rounds[bot].append(total / games[(bot, _round)])
    return rounds


def _buchholz(entrants: int, results: Sequence[Result], points: Sequence[float]) -> list[float]:
    return [sum(r) for r in _round_contributions(entrants, results, points)]


def _buchholz_cut1(
    entrants: int, results: Sequence[Result], points: Sequence[float]
) -> list[float]:
    return [sum(r) - min(r, default=0.0) for r in _round_contributions(entrants, results, points)]


def _sonneborn_berger(
    entrants: int, results: Sequence[Result], points: Sequence[float]
) -> list[float]:
    totals = [0.0] * entrants
    for result in results:
        if result.game.is_bye:
            totals[result.game.bots[0]] += points[result.game.bots[0]]
            continue
        opponents = len(result.game.bots) - 1
        for bot, opponent, score in pairwise_scores(result):
            totals[bot] += score * points[opponent] / opponents
    return totals


def _direct_encounter(
    entrants: int, results: Sequence[Result], points: Sequence[float]
) -> list[float]:
    group = {bot: round(points[bot], 9) for bot in range(entrants)}
    totals = [0.0] * entrants
    for result in results:
        opponents = len(result.game.bots) - 1
        for bot, opponent, score in pairwise_scores(result):
            if group[bot] == group[opponent]:
                totals[bot] += score / opponents
    return totals


def _wins(entrants: int, results: Sequence[Result], points: Sequence[float]) -> list[float]:
    totals = [0.0] * entrants
    for result in results:
        if not result.game.is_bye and result.ranks.count(1) == 1:
            totals[result.game.bots[result.ranks.index(1)]] += 1
    return totals


_TIEBREAK_FUNCTIONS: dict[str, Callable[[int, Sequence[Result], Sequence[float]], list[float]]] = {
    "buchholz_cut1": _buchholz_cut1,
    "buchholz": _buchholz,
    "sonneborn_berger": _sonneborn_berger,
    "direct_encounter": _direct_encounter,
    "wins": _wins,
}
