"""Per game and player count, in CPU time: random playouts, the evaluation rate of a
lookahead bot, and the referee's cost per turn split into the engine and the message.

Every rate is also divided by a fixed pure-Python calibration workload timed in the same
process, so figures from different machines or loads compare: a figure "per kcal" is per
thousand runs of the calibration workload. A row's rates and its calibration take turns
in short spells (`bench.interleave`), so a load that comes and goes falls on all of them.
"""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable, Collection, Iterator
from typing import Any

from bench import interleave
from engine import get_game
from engine.akropolis.scoring import score_surface
from engine.bots import builtin_bot
from engine.match import observation_for, play_match
from engine.players import Player
from engine.registry import get_spec
from engine.rng import SplitMix64
from sandbox.protocol import turn_line
from sandbox.referee import BoxBot

PLAYER_COUNTS = {
    "akropolis": (2, 3, 4),
    "architekton": (2,),
    "megalopolis": (2, 3, 4, 5, 6),
    "attika": (2, 3, 4),
}

_STEPS = (4096, 4095, -1, -4096, -4095, 1)


def calibration_work() -> int:
    """A fixed mix of what the engines spend their time on: a dict of cells, neighbour
    lookups by adding a step, small tuples, integer arithmetic and a sort."""
    grid = {}
    for q in range(-12, 13):
        for r in range(-12, 13):
            grid[q * 4096 + r] = ((q * 7) ^ (r * 3)) & 7
    same = 0
    for cell, value in grid.items():
        for step in _STEPS:
            near = grid.get(cell + step)
            if near is not None and near == value:
                same += 1
    order = sorted(grid, key=lambda cell: (grid[cell], -cell))
    return same + order[0]


def cpu_rate(work: Callable[[], object], seconds: float) -> float:
    """Runs of `work` per CPU-second: the best of three spells of seconds / 3 each."""
    best = 0.0
    for _ in range(3):
        runs, start = 0, time.process_time()
        while True:
            work()
            runs += 1
            elapsed = time.process_time() - start
            if elapsed >= seconds / 3:
                break
        best = max(best, runs / elapsed)
    return best


def calibration_rate(seconds: float = 1.0) -> float:
    return cpu_rate(calibration_work, seconds)


def random_playout(game_id: str, players: int, seed: int) -> None:
    game = get_game(game_id)
    state = game.new_state(seed, players, {})
    rng = SplitMix64(seed)
    while not game.is_over(state):
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.below(len(legal))])
    game.result(state)


def next_playout(game_id: str, players: int, seeds: Iterator[int]) -> None:
    """`random_playout` with the next seed."""
    random_playout(game_id, players, next(seeds))


def play_randomly(game: Any, state: Any, seed: int, turns: int | None = None) -> int:
    """Play `state` on with uniformly random legal actions drawn from `seed`, to the end
    or for `turns` turns; the turns played."""
    rng = SplitMix64(seed)
    played = 0
    while not game.is_over(state) and (turns is None or played < turns):
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.below(len(legal))])
        played += 1
    return played


def midgame_positions(
    game_id: str, players: int, count: int, start: Callable[[int], Any] | None = None
) -> list[Any]:
    """Positions a third of the way into random games, each begun by `start(seed)` (a
    new state of the game by default)."""
    game = get_game(game_id)
    if start is None:

        def start(seed: int) -> Any:
            return game.new_state(seed, players, {})

    positions = []
    for seed in range(count):
        length = play_randomly(game, start(seed), seed)
        state = start(seed)
        play_randomly(game, state, seed, length // 3)
        positions.append(state)
    return positions


def tries(
    game_id: str,
    players: int,
    per_position: int = 24,
    start: Callable[[int], Any] | None = None,
) -> list[tuple[Any, Any]]:
    """(position, action) pairs: actions spread over the legal ones of mid-game positions
    (begun by `start`, as `midgame_positions` has it)."""
    game = get_game(game_id)
    pairs = []
    for state in midgame_positions(game_id, players, 8, start):
        legal = game.legal_actions(state)
        stride = max(1, len(legal) // per_position)
        pairs += [(state, legal[i]) for i in range(0, len(legal), stride)]
    return pairs


def evaluation_rate(game_id: str, players: int, seconds: float, *, rescoring: bool) -> float:
    """Copy + apply + every seat's score, per CPU-second. With `rescoring`, the scores
    come from a full rescoring of the position (for Akropolis, `score_surface` of each
    city, what `result` did before the scores were kept up to date)."""
    work, count = evaluation_work(game_id, players, rescoring=rescoring)
    return cpu_rate(work, seconds) * count


def evaluation_work(
    game_id: str, players: int, *, rescoring: bool
) -> tuple[Callable[[], None], int]:
    """`evaluation_rate`'s work (a pass over the tries) and the evaluations it makes."""
    spec = get_spec(game_id)
    game = spec.game
    pairs = tries(game_id, players)

    if spec.scores is not None and not rescoring:
        scores: Callable[[Any], object] = spec.scores
    elif game_id == "akropolis":

        def scores(state: Any) -> object:
            variants = state.variants
            return [
                score_surface(city.top, stones, variants).total
                for city, stones in zip(state.cities, state.stones, strict=True)
            ]
    else:

        def scores(state: Any) -> object:
            return game.result(state).scores

    for state, _ in pairs:
        scores(state)  # as `agon_bot.Lookahead` does: the running scores start here

    def work() -> None:
        for state, action in pairs:
            after = game.copy_state(state)
            game.apply(after, action)
            scores(after)

    return work, len(pairs)


def mover_evaluation_rate(game_id: str, players: int, seconds: float) -> float | None:
    """What the peer's lookahead measures: copy + the move (an index into the
    position's own legal actions, `apply_legal`) + the mover's score alone (`score`),
    per CPU-second; None for a game without those."""
    found = mover_evaluation_work(game_id, players)
    if found is None:
        return None
    work, count = found
    return cpu_rate(work, seconds) * count


def mover_evaluation_work(game_id: str, players: int) -> tuple[Callable[[], None], int] | None:
    """`mover_evaluation_rate`'s work (a pass over the tries) and the evaluations it
    makes; None for a game without `apply_legal` and `score`."""
    spec = get_spec(game_id)
    game: Any = spec.game
    score = spec.score
    if score is None or not hasattr(game, "apply_legal"):
        return None
    tried = []
    for state, action in tries(game_id, players):
        legal = game.legal_actions(state)
        tried.append((state, legal, list(legal).index(action), game.current_player(state)))
        score(state, game.current_player(state))

    def work() -> None:
        for state, legal, index, mover in tried:
            after = game.copy_state(state)
            game.apply_legal(after, legal, index)
            score(after, mover)

    return work, len(tried)


class _Boxed(Player):
    """Stands for a boxed bot: shown what `BoxBot` is shown."""

    takes_encoded = BoxBot.takes_encoded


def referee_turn_costs(game_id: str, players: int) -> tuple[float, float]:
    """Median CPU seconds per turn of a recorded all-greedy match: the engine's part
    (legal actions, apply) and the message's as a boxed bot is sent it (the mover's
    observation, the turn message with its compact legal actions, encoded)."""
    game = get_game(game_id)
    replay = play_match(
        game,
        seed=3,
        players=players,
        options={},
        bots=[builtin_bot("greedy", game_id, 3, seat) for seat in range(players)],
        bot_ids=["g"] * players,
    )
    boxed = _Boxed()
    engine_costs, message_costs = [], []
    for _ in range(3):
        state = game.new_state(replay.seed, replay.players, replay.options)
        for turn, action in enumerate(replay.actions):
            seat = game.current_player(state)
            start = time.process_time()
            legal = game.legal_actions(state)
            middle = time.process_time()
            turn_line(turn, observation_for(game, state, seat, boxed), legal, 1000)
            done = time.process_time()
            game.apply(state, action)
            applied = time.process_time()
            engine_costs.append((middle - start) + (applied - done))
            message_costs.append(done - middle)
    return statistics.median(engine_costs), statistics.median(message_costs)


def row_rates(game_id: str, players: int, seconds: float) -> dict[str, float]:
    """A row's rates, per CPU-second: the calibration workload's runs, random playouts,
    evaluations (every seat's scores), evaluations by a full rescoring where the game keeps
    running scores, and the mover's evaluations where the game has them. They take turns
    in short spells (`interleave.rates`, `seconds` of CPU each), so the load of the moment
    falls on every one alike, and the row's rates divided by its own calibration hold."""
    seeds = iter(range(10**9))
    contenders: dict[str, Callable[[], object]] = {
        "calibration": calibration_work,
        "playouts": functools.partial(next_playout, game_id, players, seeds),
    }
    counts = {"calibration": 1, "playouts": 1}
    contenders["evaluations"], counts["evaluations"] = evaluation_work(
        game_id, players, rescoring=False
    )
    if get_spec(game_id).scores is not None:
        contenders["rescoring"], counts["rescoring"] = evaluation_work(
            game_id, players, rescoring=True
        )
    mover = mover_evaluation_work(game_id, players)
    if mover is not None:
        contenders["mover"], counts["mover"] = mover
    rates = interleave.rates(contenders, seconds)
    return {name: rate * counts[name] for name, rate in rates.items()}


def print_table(seconds: float, games: Collection[str] | None = None) -> None:
    """The table's rows, of every game or of `games`."""
    print(
        'CPU-time table ("/kcal" = per thousand runs of the calibration workload, timed in '
        "turns with the row's figures: its runs/CPU-s are the last column)"
    )
    print(
        "game          n | playouts/s  /kcal | evals/s    /kcal | mover/s | rescoring/s | "
        "referee turn: engine  message (us) | calibration/s"
    )
    for game_id, counts in PLAYER_COUNTS.items():
        if games is not None and game_id not in games:
            continue
        for players in counts:
            rates = row_rates(game_id, players, seconds)
            calibration = rates["calibration"]
            playouts, evals = rates["playouts"], rates["evaluations"]
            rescored = rates.get("rescoring", evals)
            mover = rates.get("mover")
            engine_cost, message_cost = referee_turn_costs(game_id, players)
            print(
                f"{game_id:<12} {players} | {playouts:9.1f} {playouts / calibration * 1e3:6.0f}"
                f" | {evals:8.0f} {evals / calibration * 1e3:7.0f} | "
                f"{'-' if mover is None else f'{mover:7.0f}':>7} | {rescored:11.0f} | "
                f"{engine_cost * 1e6:18.1f} {message_cost * 1e6:8.1f} | {calibration:.0f}"
            )
