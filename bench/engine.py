"""Engine speed: a CPU-time table per game (playouts, evaluations, the referee's turn;
see `cpu_table`), then playouts, greedy games, the referee's cost, legal_actions, cold start.

Run with `make bench` (or `.venv/bin/python bench/engine.py`). Pinned to one core.
Where a slow reference implementation exists (the full-scan legal placements, the
naive greedy), it is timed in the same run and the speed-up printed as a ratio.
"""

from __future__ import annotations

import argparse
import functools
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

import interleave  # noqa: E402  (this folder, on the path as the script's)
from cpu_table import print_table  # noqa: E402

from engine import get_game  # noqa: E402
from engine.akropolis.geometry import scan_legal_triangles  # noqa: E402
from engine.akropolis.greedy import naive_gains  # noqa: E402
from engine.bots import builtin_bot  # noqa: E402
from engine.match import play_match  # noqa: E402
from engine.replay import Replay  # noqa: E402
from engine.rng import SplitMix64  # noqa: E402

GAME = get_game("akropolis")


def timed(work: Callable[[], Any], min_seconds: float) -> tuple[int, float]:
    """Run `work` until min_seconds have passed; (runs, seconds)."""
    runs, start = 0, time.perf_counter()
    while True:
        work()
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return runs, elapsed


def random_playout(seed: int, players: int) -> None:
    state = GAME.new_state(seed, players, {})
    rng = SplitMix64(seed)
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        GAME.apply(state, legal[rng.below(len(legal))])


def bench_random(seconds: float) -> None:
    print("Random playouts (uniform over legal actions), games/s:")
    for players in (2, 3, 4):
        seeds = iter(range(10**9))
        runs, elapsed = timed(lambda p=players, s=seeds: random_playout(next(s), p), seconds)
        print(f"  {players} players: {runs / elapsed:8.1f}")


def greedy_match(seed: int, players: int) -> Replay:
    return play_match(
        GAME,
        seed=seed,
        players=players,
        options={},
        bots=[builtin_bot("greedy", GAME.id, seed, seat) for seat in range(players)],
        bot_ids=["builtin:greedy"] * players,
    )


def bench_greedy(seconds: float) -> dict[int, Replay]:
    print("Full games with the greedy bot in every seat, games/s:")
    last: dict[int, Replay] = {}
    for players in (2, 3, 4):
        seeds = iter(range(10**9))

        def one(p: int = players, s: Any = seeds) -> None:
            last[p] = greedy_match(next(s), p)

        runs, elapsed = timed(one, seconds)
        print(f"  {players} players: {runs / elapsed:8.2f}")
    return last


def bench_naive_greedy_turn(replay: Replay) -> None:
    """The greedy decision against the naive oracle on the same positions."""
    from engine.akropolis.greedy import GreedyBot

    state = GAME.new_state(replay.seed, replay.players, replay.options)
    positions = []
    for index, action in enumerate(replay.actions):
        if index % 5 == 2:
            seat = GAME.current_player(state)
            positions.append((GAME.observation(state, seat), GAME.legal_actions(state)))
        GAME.apply(state, action)
    bot = GreedyBot()
    start = time.perf_counter()
    for observation, legal in positions:
        bot.act(observation, legal)
    fast = (time.perf_counter() - start) / len(positions)
    start = time.perf_counter()
    for observation, legal in positions:
        naive_gains(observation, legal)
    naive = (time.perf_counter() - start) / len(positions)
    print(
        f"  greedy decision, 4 players: {fast * 1e3:.2f} ms; naive rescoring oracle "
        f"{naive * 1e3:.1f} ms ({naive / fast:.0f}x slower)"
    )


def referee_cost(replay: Replay) -> float:
    start = time.perf_counter()
    state = GAME.new_state(replay.seed, replay.players, replay.options)
    for action in replay.actions:
        seat = GAME.current_player(state)
        GAME.apply(state, action)  # the legality check is part of apply
        GAME.observation(state, seat)
    GAME.result(state)
    return time.perf_counter() - start


def bench_referee(replays: list[Replay]) -> None:
    costs = sorted(referee_cost(r) for r in replays for _ in range(3))
    print(
        "Referee engine cost per 4-player match (setup, legality check, apply, the mover's "
        f"observation, result) on {len(replays)} recorded matches: median "
        f"{statistics.median(costs) * 1e3:.2f} ms, worst {costs[-1] * 1e3:.2f} ms"
    )


def midgame_positions(count: int) -> list[Any]:
    states = []
    for seed in range(count):
        state = GAME.new_state(seed, 4, {})
        rng = SplitMix64(seed)
        for _ in range(30):
            legal = GAME.legal_actions(state)
            GAME.apply(state, legal[rng.below(len(legal))])
        states.append(state)
    return states


def bench_legal_actions(count: int) -> None:
    states = midgame_positions(count)
    sizes = [len(GAME.legal_actions(s)) for s in states]
    live, listed, cold, scan = [], [], [], []
    for state in states:
        start = time.perf_counter()
        GAME.legal_actions(state)
        live.append(time.perf_counter() - start)
        start = time.perf_counter()
        list(GAME.legal_actions(state))
        listed.append(time.perf_counter() - start)
        fresh = GAME.state_from_json(GAME.state_to_json(state))
        start = time.perf_counter()
        GAME.legal_actions(fresh)
        cold.append(time.perf_counter() - start)
        city = state.cities[GAME.current_player(state)]
        start = time.perf_counter()
        scan_legal_triangles(city.top, city.tile_at)
        scan.append(time.perf_counter() - start)
    med = statistics.median
    print(
        f"legal_actions on {count} mid-game 4-player positions (turn 30, median "
        f"{med(sizes):.0f} actions), median us:\n"
        f"  in play (placements kept up to date by apply): {med(live) * 1e6:8.1f}\n"
        f"  the same, every action built as a dict:        {med(listed) * 1e6:8.1f}\n"
        f"  cold (state just loaded from JSON, full scan):  {med(cold) * 1e6:8.1f}\n"
        f"  full scan of the city alone (the oracle):       {med(scan) * 1e6:8.1f}"
    )


COLD_START_CODE = (
    "import engine; from engine.rng import SplitMix64; g = engine.get_game({game!r}); "
    "s = g.new_state(1, 2, {{}}); rng = SplitMix64(1)\n"
    "while not g.is_over(s):\n"
    "    la = g.legal_actions(s); g.apply(s, la[rng.below(len(la))])\n"
    "g.result(s)"
)
"""A new interpreter's work with one game: import the engine, get the game, play one
random 2-player game (the issue's cold start, under 100 ms of CPU)."""


def child_cpu_seconds(code: str, env: dict[str, str]) -> float:
    """The user + system CPU time of `python -c CODE`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code], check=True, env=env)  # noqa: S603
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def bench_cold_start(runs: int) -> None:
    """CPU time of a new interpreter playing one game of each game, twice: with the
    bytecode cached (a temporary `PYTHONPYCACHEPREFIX`, warmed, as an installed package
    has it) and without (`PYTHONDONTWRITEBYTECODE`: every module compiled from source at
    each start, as in a read-only checkout never imported before); against the bare
    interpreter. The children take turns (`bench.interleave.samples`)."""
    path = {"PYTHONPATH": str(ROOT)}
    plain = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="agon-pycache-") as cache:
        cached = {**plain, **path, "PYTHONPYCACHEPREFIX": cache}
        uncached = {**plain, **path, "PYTHONDONTWRITEBYTECODE": "1"}
        contenders: dict[str, Callable[[], float]] = {
            "bare interpreter": functools.partial(child_cpu_seconds, "pass", cached)
        }
        for game_id in ("akropolis", "architekton", "attika", "megalopolis"):
            code = COLD_START_CODE.format(game=game_id)
            contenders[f"{game_id}, bytecode cached"] = functools.partial(
                child_cpu_seconds, code, cached
            )
            contenders[f"{game_id}, compiled at start"] = functools.partial(
                child_cpu_seconds, code, uncached
            )
        for work in contenders.values():  # warm the cache and the files
            work()
        found = interleave.samples(contenders, runs)
    print(
        "Cold start (new interpreter, import engine, one random 2-player game), CPU ms, "
        f"{runs} interleaved runs, median / min:"
    )
    for name, values in found.items():
        label = f"{name}:"
        print(f"  {label:<35} {statistics.median(values) * 1e3:6.1f} / {min(values) * 1e3:6.1f}")


def bench_attika(seconds: float) -> None:
    """Attika's random playouts and all-greedy matches, games/s per player count."""
    attika = get_game("attika")

    def playout(seed: int, players: int) -> None:
        state = attika.new_state(seed, players, {})
        rng = SplitMix64(seed)
        while not attika.is_over(state):
            legal = attika.legal_actions(state)
            attika.apply(state, legal[rng.below(len(legal))])

    def greedy(seed: int, players: int) -> None:
        bots = [builtin_bot("greedy", "attika", seed, seat) for seat in range(players)]
        play_match(
            attika, seed=seed, players=players, options={}, bots=bots, bot_ids=["g"] * players
        )

    print("Attika, games/s (random playouts | greedy in every seat):")
    for players in (2, 3, 4):
        seeds = iter(range(10**9))
        runs, elapsed = timed(lambda p=players, s=seeds: playout(next(s), p), seconds)
        greedy_runs, greedy_elapsed = timed(lambda p=players, s=seeds: greedy(next(s), p), seconds)
        print(f"  {players} players: {runs / elapsed:8.1f} | {greedy_runs / greedy_elapsed:8.2f}")


def game_random_playout(game_id: str, seed: int, players: int) -> None:
    game = get_game(game_id)
    state = game.new_state(seed, players, {})
    rng = SplitMix64(seed)
    while not game.is_over(state):
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.below(len(legal))])


def game_greedy_match(game_id: str, seed: int, players: int) -> Replay:
    return play_match(
        get_game(game_id),
        seed=seed,
        players=players,
        options={},
        bots=[builtin_bot("greedy", game_id, seed, seat) for seat in range(players)],
        bot_ids=["builtin:greedy"] * players,
    )


def games_per_second(play_one: Callable[[int], object], seconds: float) -> float:
    """How many games `play_one(seed)` plays per second over fresh seeds."""
    seeds = iter(range(10**9))
    runs, elapsed = timed(lambda: play_one(next(seeds)), seconds)
    return runs / elapsed


def bench_game_throughput(game_id: str, player_counts: tuple[int, ...], seconds: float) -> None:
    """Random playouts and all-greedy matches of one game, games/s per player count."""
    print(f"{get_game(game_id).name}, games/s (random playouts | greedy in every seat):")
    for players in player_counts:
        random_rate = games_per_second(
            functools.partial(game_random_playout, game_id, players=players), seconds
        )
        greedy_rate = games_per_second(
            functools.partial(game_greedy_match, game_id, players=players), seconds
        )
        print(f"  {players} players: {random_rate:8.1f} | {greedy_rate:8.2f}")


def bench_architekton(seconds: float) -> None:
    bench_game_throughput("architekton", (2,), seconds)


def bench_megalopolis(seconds: float) -> None:
    bench_game_throughput("megalopolis", (2, 3, 4, 5, 6), seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per throughput figure")
    parser.add_argument("--positions", type=int, default=200, help="mid-game positions sampled")
    parser.add_argument(
        "--replays", type=int, default=6, help="recorded matches the referee replays (6)"
    )
    parser.add_argument(
        "--cold-runs", type=int, default=11, help="new interpreters per cold-start figure (11)"
    )
    parser.add_argument(
        "--cold-start-only", action="store_true", help="print only the cold start's figures"
    )
    parser.add_argument(
        "--table-only", action="store_true", help="print only the CPU-time table per game"
    )
    parser.add_argument(
        "--game", action="append", help="the table's rows of this game only (repeatable)"
    )
    args = parser.parse_args()
    if args.replays < 1 or args.positions < 1 or args.cold_runs < 1:
        parser.error("need --replays, --positions and --cold-runs of 1 or more")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"Python {sys.version.split()[0]}, one core\n")
    if args.cold_start_only:
        bench_cold_start(args.cold_runs)
        return
    print_table(args.seconds, args.game)
    if args.table_only:
        return
    bench_random(args.seconds)
    last = bench_greedy(args.seconds)
    bench_naive_greedy_turn(last[4])
    replays = [greedy_match(seed, 4) for seed in range(100, 100 + args.replays)]
    bench_referee(replays)
    bench_legal_actions(args.positions)
    bench_cold_start(args.cold_runs)
    bench_architekton(args.seconds)
    bench_megalopolis(args.seconds)
    bench_attika(args.seconds)


if __name__ == "__main__":
    main()
