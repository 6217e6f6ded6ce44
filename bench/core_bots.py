"""Issue 32: the lookahead bot's and the search bots' decisions per CPU-second on
Akropolis, the compiled core on and off (`engine.akropolis.native.CORE`), interleaved.

    python bench/core_bots.py [--players 2 4] [--levels mcts-1,mcts-2] [--seconds 4]

The positions are those of `bench/search_bots.py` (a greedy match, seed 1, spread over
the game). The lookahead bot is `examples/bots/lookahead_bot.py` (every legal action
tried by index, the lead after it kept), its clock set far off so that it tries them
all; the search bots are `builtin:mcts-N`. Each bot decides on the positions in turn,
the core on and off taking turns in short spells (`bench.interleave`), so their ratio
holds on a busy machine. The same file run from an older checkout measures that
checkout's engine (its rows: before).
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]  # before this folder, whose engine.py is not the engine

from bench import interleave  # noqa: E402
from bench.search_bots import positions  # noqa: E402
from engine.akropolis import native  # noqa: E402
from engine.search.bot import LEVELS, SearchBot  # noqa: E402

GAME = "akropolis"


def lookahead_bot() -> Any:
    """The example lookahead bot, its clock set far off."""
    spec = importlib.util.spec_from_file_location(
        "lookahead_bot", ROOT / "examples" / "bots" / "lookahead_bot.py"
    )
    if spec is None or spec.loader is None:
        raise FileNotFoundError("examples/bots/lookahead_bot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    bot = module.LookaheadBot()
    bot.start({"game": GAME})
    bot.time_left_ms = 10**9
    return bot


def deciding(bot_name: str, spots: list[tuple[Any, Any]], core: Any) -> Callable[[], None]:
    """One decision a call, on the positions in turn, with the core set as given."""
    turns = itertools.count()
    lookahead = lookahead_bot() if bot_name == "lookahead" else None

    def decide() -> None:
        native.CORE = core
        number = next(turns)
        observation, legal = spots[number % len(spots)]
        if lookahead is not None:
            lookahead.act(observation, legal)
        else:
            SearchBot(GAME, LEVELS[bot_name], number).act(observation, legal)

    return decide


def main(argv: list[str] | None = None) -> dict[tuple[int, str], dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--levels", default="mcts-1,mcts-2")
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args(argv)
    core = native.CORE
    ways = {"core": core, "pure Python": None} if core is not None else {"pure Python": None}
    print(
        f"load average {os.getloadavg()[0]:.2f}; decisions per CPU-second, "
        f"{args.seconds:g} s each, interleaved; core version "
        f"{getattr(core, 'VERSION', None)}"
    )
    figures = {}
    for players in args.players:
        spots = positions(GAME, players, args.positions)
        for bot_name in ["lookahead", *args.levels.split(",")]:
            rates = interleave.rates(
                {way: deciding(bot_name, spots, module) for way, module in ways.items()},
                args.seconds,
            )
            native.CORE = core
            figures[(players, bot_name)] = rates
            shown = "  ".join(f"{way} {rate:8.2f}" for way, rate in rates.items())
            ratio = (
                f"  core / pure {rates['core'] / rates['pure Python']:.2f}x"
                if "core" in rates
                else ""
            )
            print(f"  {players}p {bot_name:10} {shown}{ratio}", flush=True)
    return figures


if __name__ == "__main__":
    main()
