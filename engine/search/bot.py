"""The search bots `builtin:mcts-1`, `mcts-2` and `mcts-3`: UCT over determinizations.

A decision: the bot draws `determinizations` whole states consistent with what it sees
(the game's `GameSpec.sample_state`: the hidden stacks, decks and hands shuffled from
its own stream), searches each with UCT (`engine.search.uct`) for an equal share of
`iterations`, and plays the move visited most over all of them. The moves it searches
are its `candidates` best by the lead they give at once (the mover's score less the
best other's, from the game's kept scores where it has them): the cheap evaluation
that orders and prunes them, a game's hundreds of placements being too many to try.

A level is a number of iterations (one playout each), never a time: the same seed and
the same observations give the same moves on any machine, so replays reproduce.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import JSON
from engine.players import Player
from engine.registry import get_spec
from engine.rng import SplitMix64
from engine.search.uct import Node, Searcher


@dataclass(frozen=True)
class Level:
    iterations: int
    """Playouts per decision, over all determinizations."""
    determinizations: int
    candidates: int
    """The moves searched: the best by their immediate lead."""
    horizon: int | None = None
    """Random moves a playout plays before the scores judge it (None: to the end)."""


LEVELS: dict[str, Level] = {
    "mcts-1": Level(iterations=64, determinizations=4, candidates=8, horizon=4),
    "mcts-2": Level(iterations=384, determinizations=8, candidates=12, horizon=4),
    "mcts-3": Level(iterations=2048, determinizations=16, candidates=16, horizon=4),
}
"""The builtin names of the search bots, weakest first."""


@dataclass
class SearchStats:
    """What the last decision did: for the tests and the benchmark."""

    iterations: int = 0
    determinizations: int = 0
    candidates: int = 0
    playout_moves: int = 0


class SearchBot(Player):
    def __init__(self, game_id: str, level: Level, seed: int) -> None:
        spec = get_spec(game_id)
        if spec.sample_state is None:
            raise ValueError(f"{spec.name} offers no determinization for the search bots")
        self.game = spec.game
        self.level = level
        self.rng = SplitMix64(seed)
        self._sample: Callable[[JSON, SplitMix64], Any] = spec.sample_state
        scores = spec.scores
        self._scores: Callable[[Any], list[int]] = scores or (
            lambda state: self.game.result(state).scores
        )
        self._kept_scores = scores is not None
        self.last = SearchStats()

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> JSON:
        self.last = SearchStats()
        if len(legal_actions) == 1:
            return legal_actions[0]
        level = self.level
        searcher = Searcher(self.game, self.rng, level.horizon, self._scores)
        states = [self._sample(observation, self.rng) for _ in range(level.determinizations)]
        for state in states:
            if len(self.game.legal_actions(state)) != len(legal_actions):
                raise RuntimeError("a determinized state has other legal actions than the seat")
        order = self._candidates(states[0], level.candidates)
        visits = [0] * len(legal_actions)
        values = [0.0] * len(legal_actions)
        share, extra = divmod(level.iterations, level.determinizations)
        iterations = 0
        for number, state in enumerate(states):
            root: Node = searcher.root(state, order)
            for _ in range(share + (number < extra)):
                searcher.iterate(root, state)
            iterations += root.visits
            for index, child in root.children.items():
                visits[index] += child.visits
                values[index] += child.value
        best = max(order, key=lambda index: (visits[index], values[index]))
        self.last = SearchStats(iterations, len(states), len(order), searcher.playout_moves)
        return legal_actions[best]

    def _candidates(self, state: Any, count: int) -> list[int]:
        return leading_moves(self.game, self._scores, state, count, kept=self._kept_scores)


def leading_moves(
    game: Any, scores: Callable[[Any], list[int]], state: Any, count: int, *, kept: bool
) -> list[int]:
    """The indices of the `count` legal moves of `state` with the best immediate lead
    (the mover's score less the best other's), best first, ties in the order of the
    legal actions. `kept`: the game keeps its scores up to date on every copy."""
    if kept:
        scores(state)  # scored once here, kept up to date on every copy
    mover = game.current_player(state)
    legal = game.legal_actions(state)
    searcher = Searcher(game, SplitMix64(0))  # plays moves only: draws nothing
    leads = []
    for index in range(len(legal)):
        after = game.copy_state(state)
        searcher.play(after, legal, index)
        found = scores(after)
        others = [score for seat, score in enumerate(found) if seat != mover]
        leads.append(found[mover] - max(others, default=0))
    ranked = sorted(range(len(legal)), key=lambda index: -leads[index])
    return ranked[:count]
