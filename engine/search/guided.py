"""The search bots' search: a bandit over the greedy bot's best moves, judged by playouts
that the greedy bot plays, over determinized states.

A decision searches `Guided.decide`: the candidates are the mover's legal moves ranked
by the game's greedy valuation (`GameSpec.move_values`), best first, as the greedy bot
ranks them from what the mover sees. They enter the
search by progressive widening (Chaslot et al. 2008): after n iterations the first
`1 + isqrt(n // 2)` of them are open (one at first, the greedy move; 5 after 32, 9 after
128, 15 after 392), so a small budget weighs a few of the greedy bot's choices well and a
larger one looks further down its list. Each iteration picks an open candidate by UCB1
(a new one first), plays it on a copy of the next determinized state in turn (iteration
i on state i mod their number, so every candidate meets every deal), then plays
`horizon` moves more, every seat's move the greedy bot's except one time in `explore`, a
random one (the variety without which more playouts would repeat the same few games),
and judges the position: a finished game by its result, an unfinished one by the seats'
standings (`GameSpec.standing`, else the scores) as `margin_rewards` does. The move
played is the candidate tried most (then the best mean, then the greedy bot's order).

Deterministic: every draw comes from the given `SplitMix64`, ties go to the first in the
greedy order, and the work is a number of iterations, never a time.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import Game
from engine.rng import SplitMix64
from engine.search.uct import margin_rewards, pairwise_rewards

EXPLORATION = 0.5
"""UCB1's exploration constant over rewards in [0, 1], a little greedier than √2/2:
the candidates come ranked, and the budgets are small."""

MoveValues = Callable[[Any, Sequence[Any]], Sequence[float]]


def open_candidates(iterations_done: int, candidates: int) -> int:
    """How many of the ranked candidates progressive widening has opened so far."""
    return min(candidates, 1 + math.isqrt(iterations_done // 2))


def ranked(values: Sequence[float], count: int) -> list[int]:
    """The indices of the `count` best values, best first, ties in index order."""
    return sorted(range(len(values)), key=lambda index: -values[index])[:count]


@dataclass
class Arm:
    """One candidate at the root: its visits and the sum of its mover's rewards."""

    index: int
    visits: int = 0
    value: float = 0.0

    def mean(self) -> float:
        return self.value / self.visits if self.visits else 0.0


@dataclass
class Decision:
    """What a search did: the move chosen (an index into the legal actions) and its
    counts, for the tests and the benchmark."""

    move: int
    arms: list[Arm] = field(default_factory=list)
    iterations: int = 0
    playout_moves: int = 0


class Guided:
    """The search of one game, drawing from `rng`."""

    def __init__(
        self,
        game: Game[Any],
        values: MoveValues,
        standing: Callable[[Any], Sequence[float]],
        rng: SplitMix64,
        *,
        horizon: int,
        explore: int,
    ) -> None:
        self.game = game
        self.values = values
        self.standing = standing
        self.rng = rng
        self.horizon = horizon
        self.explore = explore
        """A playout's move is a random one one time in `explore` (0: never)."""
        apply_legal: Callable[[Any, Sequence[Any], int], None] | None = getattr(
            game, "apply_legal", None
        )
        self._apply_legal = apply_legal
        self.playout_moves = 0

    def play(self, state: Any, legal: Sequence[Any], index: int) -> None:
        """Apply `legal[index]`, without checking it again where the game allows."""
        if self._apply_legal is not None:
            self._apply_legal(state, legal, index)
        else:
            self.game.apply(state, legal[index])

    def decide(self, states: Sequence[Any], iterations: int, order: Sequence[int]) -> Decision:
        """Search the determinized `states` (the same legal moves in each) for
        `iterations` playouts over the candidates `order` (indices of legal moves, the
        greedy bot's best first)."""
        game = self.game
        mover = game.current_player(states[0])
        arms = [Arm(index) for index in order]
        self.playout_moves = 0
        for number in range(iterations):
            arm = self._pick(arms[: open_candidates(number, len(arms))], number)
            state = game.copy_state(states[number % len(states)])
            self.play(state, game.legal_actions(state), arm.index)
            arm.visits += 1
            arm.value += self.playout(state)[mover]
        tried = [arm for arm in arms if arm.visits]
        best = max(tried, key=lambda arm: (arm.visits, arm.mean())) if tried else arms[0]
        return Decision(best.index, arms, iterations, self.playout_moves)

    def _pick(self, arms: Sequence[Arm], done: int) -> Arm:
        for arm in arms:
            if not arm.visits:
                return arm
        log_done = math.log(done)

        def upper_bound(arm: Arm) -> float:
            return arm.mean() + EXPLORATION * math.sqrt(log_done / arm.visits)

        return max(arms, key=upper_bound)  # the first of the best

    def playout(self, state: Any) -> list[float]:
        """Play up to `horizon` guided moves on `state` and judge it: every seat's reward."""
        game = self.game
        rng = self.rng
        for _ in range(self.horizon):
            if game.is_over(state):
                return pairwise_rewards(game.result(state))
            legal = game.legal_actions(state)
            if len(legal) == 1:
                index = 0
            elif self.explore and rng.below(self.explore) == 0:
                index = rng.below(len(legal))
            else:
                values = self.values(state, legal)
                index = max(range(len(values)), key=values.__getitem__)  # the first best
            self.play(state, legal, index)
            self.playout_moves += 1
        if game.is_over(state):
            return pairwise_rewards(game.result(state))
        return margin_rewards(self.standing(state))
