"""A finished match's story: every seat's chances after every move, judged by a search bot.

For each state of the replay (step 0, the table after setup, then after each action, as
the replay viewer counts its steps) the search of a reference level (`LEVELS`, named as
the search bots, mcts-1 by default) runs from that state: UCT over the moves of the seat
to move, its `candidates` best by their immediate lead, `iterations` playouts of at most
`horizon` random moves each, judged by the score margins (`engine.search.uct`). These
are the first search bots' levels, unguided: the curves' noise and `DROP_THRESHOLD` were
measured with them (bench/README.md, "Match analysis"); the bots themselves now search
guided by the greedy bots (`engine.search.guided`). A position's value for
each seat is the mean reward, to every seat, of the playouts through the move the search
visited most: the line the search believes in, not the average over the moves it tried
and rejected. A finished game's values are its result's.

A seat's value is its expected share of its meetings with the others: 1 for a sole
winner, 0 for the last, 1/2 each for a tie of two. With two seats it is the chance to
win (a draw half); with more, the expected final rank is `1 + (n - 1) * (1 - value)`.
The values of a position sum to n/2.

The analysis is made after the match, so it searches the whole true state: the hidden
stacks and hands as they were, which no seat saw. It is deterministic: each step draws
from its own stream, derived from the match's seed and the step's number, bounded by
playouts, never by time.

The biggest drops (`biggest_drops`) are the moves after which the mover's own value fell
the most: the blunders, as the search sees them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.registry import get_spec
from engine.replay import Replay, replay_states
from engine.rng import SplitMix64, derive_seed
from engine.search.bot import Level, leading_moves
from engine.search.uct import Searcher, pairwise_rewards

LEVELS: dict[str, Level] = {
    "mcts-1": Level(iterations=64, determinizations=1, candidates=8, horizon=4),
    "mcts-2": Level(iterations=384, determinizations=1, candidates=12, horizon=4),
    "mcts-3": Level(iterations=2048, determinizations=1, candidates=16, horizon=4),
}
"""The analysis's levels by name, weakest first (the whole state is searched: one
"determinization")."""
DEFAULT_LEVEL = "mcts-1"
DROPS_SHOWN = 5
"""At most this many drops are marked."""
DROP_THRESHOLD = 0.2
"""A move that costs its mover less than this share of its meetings is no drop: about
the 80th percentile of mcts-1's step-to-step noise (bench/README.md, "Match analysis")."""


@dataclass(frozen=True)
class Drop:
    step: int
    """The step after the move (the viewer's numbering: the move is action step - 1)."""
    seat: int
    before: float
    after: float

    @property
    def size(self) -> float:
        return self.before - self.after


@dataclass(frozen=True)
class Analysis:
    level: str
    values: list[list[float]]
    """values[step][seat], for step 0 (after setup) to the last (the finished game)."""
    movers: list[int | None]
    """movers[step]: the seat whose action led to the step (None for step 0)."""
    playouts: int
    """Playouts run over all the steps."""

    def drops(self, count: int = DROPS_SHOWN) -> list[Drop]:
        return biggest_drops(self.values, self.movers, count)


def position_values(
    game_id: str, state: Any, seats: int, level: Level, rng: SplitMix64
) -> tuple[list[float], int]:
    """Each seat's value of `state` (see the module's docstring) and the playouts spent."""
    spec = get_spec(game_id)
    game = spec.game
    if game.is_over(state):
        return pairwise_rewards(game.result(state)), 0
    scores = spec.scores or (lambda whole: game.result(whole).scores)
    searcher = Searcher(game, rng, level.horizon, scores)
    order = leading_moves(game, scores, state, level.candidates, kept=spec.scores is not None)
    root = searcher.root(state, order)
    sums: dict[int, list[float]] = {}
    counts: dict[int, int] = {}
    for _ in range(level.iterations):
        first, rewards = searcher.iterate(root, state)
        key = -1 if first is None else first
        totals = sums.setdefault(key, [0.0] * seats)
        for seat, reward in enumerate(rewards):
            totals[seat] += reward
        counts[key] = counts.get(key, 0) + 1
    # The most visited move; of equals, the first in the search's order.
    best = max((key for key in order if key in counts), key=lambda key: counts[key])
    return [total / counts[best] for total in sums[best]], level.iterations


def analyse_replay(
    replay: Replay, level_name: str = DEFAULT_LEVEL, *, seed: int | None = None
) -> Analysis:
    """The analysis of a whole replay (ReplayError if it does not play through), its
    playouts drawn from `seed` (the match's own unless given)."""
    level = LEVELS[level_name]
    spec = get_spec(replay.game)
    game = spec.game
    values: list[list[float]] = []
    movers: list[int | None] = []
    playouts = 0
    mover: int | None = None
    for step, state in enumerate(replay_states(replay)):
        rng = SplitMix64(
            derive_seed(replay.seed if seed is None else seed, "analysis", level_name, step)
        )
        found, spent = position_values(replay.game, state, replay.players, level, rng)
        values.append(found)
        movers.append(mover)
        playouts += spent
        mover = None if game.is_over(state) else game.current_player(state)
    return Analysis(level_name, values, movers, playouts)


def biggest_drops(
    values: Sequence[Sequence[float]],
    movers: Sequence[int | None],
    count: int = DROPS_SHOWN,
    threshold: float = DROP_THRESHOLD,
) -> list[Drop]:
    """The `count` moves after which their mover's value fell the most, at least by
    `threshold`, largest first (ties: the earlier step), then in no other order."""
    found = []
    for step in range(1, len(values)):
        seat = movers[step]
        if seat is None or seat >= len(values[step]) or seat >= len(values[step - 1]):
            continue
        before, after = values[step - 1][seat], values[step][seat]
        if before - after >= threshold:
            found.append(Drop(step, seat, before, after))
    found.sort(key=lambda drop: (-drop.size, drop.step))
    return found[: max(0, count)]


def expected_rank(value: float, seats: int) -> float:
    """The expected final rank of a seat whose value is `value` among `seats` seats."""
    return 1 + (seats - 1) * (1 - value)
