"""The games of a version test: pairs of legs, each leg one comparison of the candidate
(entrant 0) with the baseline (entrant 1).

Two players: a leg is one game between them, and a pair is the two games of a meeting
(seats swapped), as fishtest plays them. Tables of P: the two versions never sit
together; a leg is two mirrored games, the candidate in one and the baseline
in the other, in the same seat against the same fixed opponents (entrants 2 ..) in the same
seats, and the leg is won by the version that scored more points. The two legs of a pair
put the versions in consecutive seats, so the seats come round evenly. Every game is
dealt afresh (`core.deal_seed`): mirrored tables share their seating, not their deal.
"""

from __future__ import annotations

from collections.abc import Sequence

from competition.formats.core import Result, ScheduledGame, game_points, meeting
from engine.rng import derive_seed

CANDIDATE, BASELINE = 0, 1


def pair_legs(number: int, seed: int, players: int) -> list[list[ScheduledGame]]:
    """The two legs of pair `number`, each the games that decide it."""
    if players == 2:
        return [[game] for game in meeting(1, "pair", (CANDIDATE, BASELINE), seed, number)]
    opponents = list(range(2, players + 1))
    legs = []
    for leg in range(2):
        seat = (2 * number + leg) % players
        shared = derive_seed(seed, "pair", number, leg, one_way=True)
        mirrored = []
        for side, version in enumerate((CANDIDATE, BASELINE)):
            bots = (*opponents[:seat], version, *opponents[seat:])
            mirrored.append(ScheduledGame(1, "pair", 4 * number + 2 * leg + side, bots, shared))
        legs.append(mirrored)
    return legs


def leg_score(results: Sequence[Result]) -> float:
    """The candidate's score in a leg: 1, 1/2 or 0."""
    points = {
        version: game_points(r.ranks)[r.game.bots.index(version)]
        for r in results
        for version in (CANDIDATE, BASELINE)
        if version in r.game.bots
    }
    if len(results) == 1:
        return points[CANDIDATE]
    gap = points[CANDIDATE] - points[BASELINE]
    return 1.0 if gap > 0 else 0.5 if gap == 0 else 0.0
