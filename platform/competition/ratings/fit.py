"""An offline maximum-likelihood fit of a ladder's results, beside the live ratings as a
check on them: Bradley-Terry over the pairwise results of every match (a table of n
seats is its n(n-1)/2 pairs, a tie half a win each way), fitted by Hunter's MM algorithm
("MM algorithms for generalized Bradley-Terry models", 2004). Each bot also gets PRIOR
wins and losses against a virtual bot of the mean strength, so that a bot that won or
lost everything still has a finite strength. Strengths are put on the Elo scale with the
same mean as the start rating, so they read like the ratings beside them.

Unlike the live ratings, the fit sees every result at once and ignores their order: a
bot whose versions changed is fitted as one strength over all of them.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

Player = TypeVar("Player", bound=Hashable)

PRIOR = 0.5
ELO_PER_LOG_ODDS = 400.0 / math.log(10.0)


def bradley_terry(
    results: Iterable[tuple[Sequence[Player], Sequence[int]]],
    *,
    centre: float,
    tolerance: float = 1e-6,
    max_rounds: int = 10_000,
) -> dict[Player, float]:
    """Each player's fitted strength on the Elo scale, the mean at `centre`, from
    `results`: the players of each match and their ranks (1 best, equal ranks tie)."""
    wins: dict[Player, float] = defaultdict(float)
    meetings: dict[Player, dict[Player, float]] = defaultdict(lambda: defaultdict(float))
    for players, ranks in results:
        for i, one in enumerate(players):
            for j in range(i + 1, len(players)):
                other = players[j]
                score = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                wins[one] += score
                wins[other] += 1.0 - score
                meetings[one][other] += 1.0
                meetings[other][one] += 1.0
    players_ = sorted(meetings, key=repr)
    gamma = dict.fromkeys(players_, 1.0)
    for _ in range(max_rounds):
        largest_step = 0.0
        for player in players_:
            g = gamma[player]
            denominator = 2 * PRIOR / (g + 1.0)
            for opponent, games in meetings[player].items():
                denominator += games / (g + gamma[opponent])
            new = (wins[player] + PRIOR) / denominator
            largest_step = max(largest_step, abs(math.log(new / g)))
            gamma[player] = new
        if largest_step < tolerance:
            break
    logs = {player: math.log(value) for player, value in gamma.items()}
    mean = sum(logs.values()) / len(logs) if logs else 0.0
    return {player: centre + (log - mean) * ELO_PER_LOG_ODDS for player, log in logs.items()}
