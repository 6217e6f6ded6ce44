"""The search bots `builtin:mcts-1`, `mcts-2` and `mcts-3`: a guided search over
determinizations.

A decision: the bot draws `determinizations` whole states consistent with what it sees
(the game's `GameSpec.sample_state`: the hidden stacks, decks and hands shuffled from
its own stream) and searches them together (`engine.search.guided`): its `candidates`
are the greedy bot's best moves, opened by progressive widening, each judged by
playouts of `horizon` moves that the greedy bot plays (a random move one time in
`explore`). A higher level has more iterations, over more determinizations, more
candidates and longer playouts: every level sees more of the game than the one below,
not the same few deals more often.

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
from engine.search.guided import Guided, MoveValues, ranked
from engine.search.uct import Searcher


@dataclass(frozen=True)
class Level:
    iterations: int
    """Playouts per decision, over all determinizations."""
    determinizations: int
    candidates: int
    """The most moves searched: the greedy bot's best (the analysis: the best by their
    immediate lead)."""
    horizon: int | None = None
    """Moves a playout plays before the standings judge it (None: to the end)."""
    explore: int = 4
    """A playout's move is a random one one time in `explore` (0: never), else the
    greedy bot's. The analysis's playouts are random throughout."""


LEVELS: dict[str, Level] = {
    "mcts-1": Level(iterations=16, determinizations=4, candidates=3, horizon=4),
    "mcts-2": Level(iterations=64, determinizations=12, candidates=8, horizon=5),
    "mcts-3": Level(iterations=192, determinizations=32, candidates=12, horizon=6),
}
"""The builtin names of the search bots, weakest first."""


@dataclass
class SearchStats:
    """What the last decision did: for the tests and the benchmark."""

    iterations: int = 0
    determinizations: int = 0
    candidates: int = 0
    """The candidates the search tried."""
    playout_moves: int = 0


class SearchBot(Player):
    def __init__(self, game_id: str, level: Level, seed: int) -> None:
        spec = get_spec(game_id)
        if spec.sample_state is None or spec.move_values is None:
            raise ValueError(f"{spec.name} offers no determinization or guide for the search bots")
        self.game = spec.game
        self.level = level
        self.rng = SplitMix64(seed)
        self._sample: Callable[[JSON, SplitMix64], Any] = spec.sample_state
        self._values: MoveValues = spec.move_values
        self._seen: Callable[[JSON], Any] | None = spec.state_from_observation
        """The state the greedy bot ranks the candidates on: what the seat sees."""
        self._kept = spec.scores
        """The game's kept scores: scored once on a state, kept up to date on its copies."""
        scores = spec.scores or (lambda state: self.game.result(state).scores)
        self._standing: Callable[[Any], Sequence[float]] = spec.standing or scores
        self.last = SearchStats()

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> JSON:
        self.last = SearchStats()
        if len(legal_actions) == 1:
            return legal_actions[0]
        level = self.level
        states = [self._sample(observation, self.rng) for _ in range(level.determinizations)]
        for state in states:
            if len(self.game.legal_actions(state)) != len(legal_actions):
                raise RuntimeError("a determinized state has other legal actions than the seat")
            if self._kept is not None:
                self._kept(state)
        search = Guided(
            self.game,
            self._values,
            self._standing,
            self.rng,
            horizon=level.horizon if level.horizon is not None else 10**9,
            explore=level.explore,
        )
        seen = self._seen(observation) if self._seen is not None else states[0]
        order = ranked(self._values(seen, legal_actions), level.candidates)
        decision = search.decide(states, level.iterations, order)
        self.last = SearchStats(
            decision.iterations,
            len(states),
            sum(1 for arm in decision.arms if arm.visits),
            decision.playout_moves,
        )
        return legal_actions[decision.move]


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
