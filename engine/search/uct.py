"""Monte Carlo tree search (UCT) on one determinized state: the core of the search bots.

The state searched is a whole state of the game (its hidden parts drawn by the game's
`GameSpec.sample_state`), so it is a game of perfect information from there on: every
node stands for one state, and a child is known by the index of its action among its
parent's legal actions. One iteration walks down the tree by UCB1 (Kocsis & Szepesvári
2006), adds one child, plays the game out at random to its end, and backs the result
up: each node keeps the sum of the rewards of the seat that moved into it.

The reward of a finished game is a seat's share of its pairwise meetings: 1 for each
other seat it ranks above, 1/2 for each it ties with, over the number of others (so 1
for a sole winner, 0 for the last, 1/2 each for a two-player tie).

Everything is deterministic: children are kept in the order they were added, every
random draw comes from the given `SplitMix64`, and ties go to the first.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

from engine.core import Game, MatchResult
from engine.rng import SplitMix64

EXPLORATION = 0.7
"""UCB1's exploration constant for rewards in [0, 1] (√2/2 is the textbook value)."""


def pairwise_rewards(result: MatchResult) -> list[float]:
    """Each seat's share of its pairwise meetings with the others (see the docstring)."""
    ranks = result.ranks
    others = len(ranks) - 1
    if others == 0:
        return [1.0]
    return [
        (sum(1.0 for theirs in ranks if theirs > mine) + 0.5 * (ranks.count(mine) - 1)) / others
        for mine in ranks
    ]


def margin_rewards(scores: Sequence[float]) -> list[float]:
    """Each seat's pairwise share judged on scores of an unfinished game: a meeting is
    worth 1/2 + tanh(margin / scale) / 2, the scale a tenth of the largest score (at
    least 1), so a lead counts more the larger it is, and saturates."""
    others = len(scores) - 1
    if others == 0:
        return [1.0]
    scale = max(1.0, 0.1 * max(abs(score) for score in scores))
    return [
        sum(0.5 + 0.5 * math.tanh((mine - theirs) / scale) for theirs in scores) / others
        - 0.5 / others  # the meeting with itself, counted above
        for mine in scores
    ]


class Node:
    """One state of the tree. `legal` is None for a finished game."""

    __slots__ = ("children", "legal", "mover", "ordered", "untried", "value", "visits")

    def __init__(self, game: Game[Any], state: Any, order: Sequence[int] | None = None) -> None:
        self.visits = 0
        self.value = 0.0
        """Sum of the rewards, to the parent's mover, of the iterations through here."""
        self.children: dict[int, Node] = {}
        self.legal: Sequence[Any] | None = None
        self.mover = -1
        self.untried: list[int] = []
        """Indices of the legal actions not yet added as children, the next one last when
        `ordered`, else drawn at random."""
        self.ordered = order is not None
        if not game.is_over(state):
            self.legal = game.legal_actions(state)
            self.mover = game.current_player(state)
            self.untried = list(order) if order is not None else list(range(len(self.legal)))
            if order is not None:
                self.untried.reverse()


class Searcher:
    """UCT on determinized states of one game, drawing from `rng`."""

    def __init__(
        self,
        game: Game[Any],
        rng: SplitMix64,
        horizon: int | None = None,
        scores: Callable[[Any], list[int]] | None = None,
    ) -> None:
        self.game = game
        self.rng = rng
        self.horizon = horizon
        """Moves a playout plays before it stops and judges the scores (None: to the end)."""
        self._scores = scores or (lambda state: game.result(state).scores)
        apply_legal: Callable[[Any, Sequence[Any], int], None] | None = getattr(
            game, "apply_legal", None
        )
        self._apply_legal = apply_legal
        self.playout_moves = 0
        """Moves played in playouts so far (for the tests and the benchmark)."""

    def play(self, state: Any, legal: Sequence[Any], index: int) -> None:
        """Apply `legal[index]`, without checking it again where the game allows."""
        if self._apply_legal is not None:
            self._apply_legal(state, legal, index)
        else:
            self.game.apply(state, legal[index])

    def root(self, state: Any, order: Sequence[int] | None = None) -> Node:
        """The root of a tree over `state`; `order` (indices into its legal actions, best
        first) is the order to try its moves in and the only ones tried, else all at
        random."""
        return Node(self.game, state, order)

    def iterate(self, root: Node, state: Any) -> tuple[int | None, list[float]]:
        """One iteration from the root over `state` (left unchanged): the index of the
        root's move it went through (None from a finished game) and every seat's reward."""
        game = self.game
        state = game.copy_state(state)
        node = root
        path = [root]
        first: int | None = None
        while node.legal is not None and not node.untried and node.children:
            index, node = self._best_child(node)
            self.play(state, path[-1].legal, index)  # type: ignore[arg-type]
            path.append(node)
            first = index if first is None else first
        if node.legal is not None and node.untried:
            index = self._next_untried(node)
            self.play(state, node.legal, index)
            child = Node(game, state)
            node.children[index] = child
            path.append(child)
            first = index if first is None else first
        rewards = self._playout(state)
        root.visits += 1
        for parent, child in itertools.pairwise(path):
            child.visits += 1
            child.value += rewards[parent.mover]
        return first, rewards

    def _next_untried(self, node: Node) -> int:
        untried = node.untried
        if node.ordered:
            return untried.pop()
        pick = self.rng.below(len(untried))
        untried[pick], untried[-1] = untried[-1], untried[pick]
        return untried.pop()

    def _best_child(self, node: Node) -> tuple[int, Node]:
        log_visits = math.log(node.visits)

        def upper_bound(entry: tuple[int, Node]) -> float:
            child = entry[1]
            return child.value / child.visits + EXPLORATION * math.sqrt(log_visits / child.visits)

        return max(node.children.items(), key=upper_bound)  # the first of the best

    def _playout(self, state: Any) -> list[float]:
        game = self.game
        rng = self.rng
        moves = 0
        horizon = self.horizon
        while not game.is_over(state):
            if horizon is not None and moves >= horizon:
                self.playout_moves += moves
                return margin_rewards(self._scores(state))
            legal = game.legal_actions(state)
            self.play(state, legal, rng.below(len(legal)))
            moves += 1
        self.playout_moves += moves
        return pairwise_rewards(game.result(state))
