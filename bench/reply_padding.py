"""What a reply padded to the line limit costs the referee: the turn time and the
referee's own CPU time of a turn whose legal reply is followed by whitespace up to
`message_bytes`, against the same reply unpadded, in a real box.

Each sample is a fresh box: its first turn (start-up) is answered plainly and not timed,
its second is the one measured; a padded reply may be refused (then the box is done).
Boxes of the two kinds take turns (`bench.interleave.samples`, the order rotated every
round), so the machine's drift falls on both alike.
Run with `.venv/bin/python bench/reply_padding.py` (as root: boxes need cgroups).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from bench import interleave  # noqa: E402
from engine import get_game  # noqa: E402
from engine.players import BotFault  # noqa: E402
from sandbox.backends import BoxSpec, get_backend  # noqa: E402
from sandbox.limits import limits_for  # noqa: E402
from sandbox.referee import BoxBot  # noqa: E402

BOT = """\
import sys
from agon_bot import run

PADDING, PIECE = {padding}, {piece}
TURNS = iter(range(10**9))


class Padded:
    # The reply, then its padding in pieces of PIECE bytes, each flushed.

    def write(self, text):
        if text.endswith("\\n") and next(TURNS) > 0 and PADDING:
            sys.stdout.write(text[:-1])
            left = PADDING - len(text)
            while left > 0:
                sys.stdout.write(" " * min(PIECE, left))
                sys.stdout.flush()
                left -= PIECE
            text = "\\n"
        sys.stdout.write(text)

    def flush(self):
        sys.stdout.flush()


run(lambda observation, legal_actions: legal_actions[0], stdout=Padded())
"""


def one_turn(backend_name: str, folder: Path) -> tuple[float, float, str]:
    """Wall and referee CPU seconds of the second turn, and how it ended."""
    game = get_game("akropolis")
    state = game.new_state(7, 2, {})
    observation, legal = game.observation(state, 0), game.legal_actions(state)
    limits = limits_for("akropolis")
    bot = BoxBot(get_backend(backend_name).open(BoxSpec(folder, limits)), limits)
    try:
        bot.start({"game": "akropolis", "player": 0, "players": 2, "options": {}})
        bot.act(observation, legal)
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            bot.act(observation, legal)
            outcome = "taken"
        except BotFault as fault:
            outcome = fault.kind
        return time.perf_counter() - wall, time.process_time() - cpu, outcome
    finally:
        bot.close()


def spread(values: list[float]) -> str:
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{low * 1e3:8.2f} {mid * 1e3:8.2f} {high * 1e3:8.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=15, help="boxes per kind of reply")
    parser.add_argument("--backend", default="bwrap")
    parser.add_argument("--padding", type=int, help="bytes of a padded line (default: the limit)")
    parser.add_argument("--piece", type=int, default=4096, help="bytes of padding a write")
    args = parser.parse_args(argv)
    if args.samples < 1:
        parser.error("need --samples of 1 or more")
    padding = args.padding or limits_for("akropolis").message_bytes
    print(f"{args.backend}, {args.samples} boxes each, padding written {args.piece} B at a time")
    print("ms as min median max")
    print(f"{'reply':<24}{'turn wall ms':>27}{'referee CPU ms':>27}  outcome")
    kinds = {"plain": 0, f"padded to {padding} B": padding}
    with contextlib.ExitStack() as stack:
        contenders = {}
        for label, size in kinds.items():
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            folder.chmod(0o755)
            (folder / "main.py").write_text(BOT.format(padding=size, piece=args.piece))
            (folder / "main.py").chmod(0o644)
            contenders[label] = functools.partial(one_turn, args.backend, folder)
        found = interleave.samples(contenders, args.samples)
    for label, samples in found.items():
        walls, cpus = [s[0] for s in samples], [s[1] for s in samples]
        outcomes = sorted({s[2] for s in samples})
        print(f"{label:<24}{spread(walls):>27}{spread(cpus):>27}  {', '.join(outcomes)}")
    plain, padded = (found[label] for label in kinds)
    print(
        "ratio, padded / plain, of the medians: turn wall "
        f"{statistics.median(s[0] for s in padded) / statistics.median(s[0] for s in plain):.2f}x"
        ", referee CPU "
        f"{statistics.median(s[1] for s in padded) / statistics.median(s[1] for s in plain):.2f}x"
    )


if __name__ == "__main__":
    main()
