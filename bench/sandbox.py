"""Sandbox speed: per-turn round trip and box start time of each backend, against a
plain subprocess pipe measured in the same run.

A "turn" is the referee encoding a real mid-game 4-player Akropolis turn message
(observation plus compact legal actions), a bot built on agon_bot parsing it and
answering, and the referee reading the answer; for the boxes it includes thawing before
and freezing after, as in a match.
Run with `.venv/bin/python bench/sandbox.py` (as root: boxes need cgroups).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from engine import get_game  # noqa: E402
from engine.rng import SplitMix64  # noqa: E402
from sandbox import protocol  # noqa: E402
from sandbox.backends import BoxSpec, SandboxError, get_backend  # noqa: E402
from sandbox.libraries import host_python_path  # noqa: E402
from sandbox.limits import limits_for  # noqa: E402
from sandbox.referee import BoxBot  # noqa: E402

BOT = """\
from agon_bot import run

def act(observation, legal_actions):
    return legal_actions[0]

run(act)
"""


def turn_payload() -> tuple[dict[str, object], object]:
    game = get_game("akropolis")
    state = game.new_state(7, 4, {})
    rng = SplitMix64(7)
    for _ in range(30):
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.below(len(legal))])
    return game.observation(state, game.current_player(state)), game.legal_actions(state)


def plain_pipe(folder: Path, turns: int) -> tuple[float, list[float]]:
    """The baseline: the same bot as a bare child process, one write and one readline."""
    observation, legal = turn_payload()
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "main.py"],
        cwd=folder,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={"PYTHONPATH": host_python_path(), "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdin and process.stdout
    process.stdin.write(protocol.encode(protocol.start_message({"game": "akropolis"})))
    rounds = []
    for turn in range(turns + 1):
        begin = time.perf_counter()
        message = protocol.encode(protocol.turn_message(turn, observation, legal, 1000))
        process.stdin.write(message)
        process.stdin.flush()
        json.loads(process.stdout.readline())
        rounds.append(time.perf_counter() - begin)
        if turn == 0:
            start_time = time.perf_counter() - started
    process.stdin.close()
    process.wait()
    return start_time, rounds[1:]


def boxed(backend_name: str, folder: Path, turns: int) -> tuple[float, list[float]]:
    backend = get_backend(backend_name)
    observation, legal = turn_payload()
    limits = limits_for("akropolis")
    started = time.perf_counter()
    bot = BoxBot(backend.open(BoxSpec(folder, limits)), limits)
    try:
        bot.start({"game": "akropolis", "player": 0, "players": 4, "options": {}})
        rounds = []
        for turn in range(turns + 1):
            begin = time.perf_counter()
            bot.act(observation, legal)
            rounds.append(time.perf_counter() - begin)
            if turn == 0:
                start_time = time.perf_counter() - started
    finally:
        bot.close()
    return start_time, rounds[1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=300, help="turns per measurement")
    parser.add_argument("--starts", type=int, default=7, help="box starts per backend")
    parser.add_argument("--backends", default="none,bwrap,docker")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        folder.chmod(0o755)
        (folder / "main.py").write_text(BOT)
        (folder / "main.py").chmod(0o644)
        med = statistics.median
        pipe_starts = [plain_pipe(folder, 0)[0] for _ in range(args.starts)]
        _, pipe_rounds = plain_pipe(folder, args.turns)
        pipe_turn = med(pipe_rounds)
        observation, legal = turn_payload()
        size = len(protocol.encode(protocol.turn_message(0, observation, legal, 1000)))
        print(f"turn message: {size} bytes (4 players, turn 30); median of {args.turns} turns\n")
        print(f"{'backend':<12}{'per turn':>12}{'vs pipe':>10}{'start':>12}{'vs pipe':>10}")
        print(
            f"{'plain pipe':<12}{pipe_turn * 1e6:>10.0f}us{1:>9.2f}x"
            f"{med(pipe_starts) * 1e3:>10.0f}ms{1:>9.2f}x"
        )
        for name in args.backends.split(","):
            try:
                starts = [boxed(name, folder, 0)[0] for _ in range(args.starts)]
                _, rounds = boxed(name, folder, args.turns)
            except SandboxError as error:
                print(f"{name:<12}unavailable: {error}")
                continue
            turn = med(rounds)
            start = med(starts)
            print(
                f"{name:<12}{turn * 1e6:>10.0f}us{turn / pipe_turn:>9.2f}x"
                f"{start * 1e3:>10.0f}ms{start / med(pipe_starts):>9.2f}x"
            )


if __name__ == "__main__":
    main()
