"""Side channels left open between boxes: how much a bot learns of its opponent's work
between two of its own turns, in bits per turn, per channel and backend.

Two boxes take turns as in a match (each thawed for its own turn only, by the real
`BoxBot`). Each turn the sender is handed a random symbol and works accordingly; the
observer measures, at each of its turns, what is still in its reach:

- thinking time: the wall-clock gap since the end of its previous turn, while the sender
  computes for symbol x 10 ms (8 symbols);
- CPU caches: the time to read its own 4 MiB buffer again, while the sender either
  sweeps 32 MiB of memory or computes in registers, for the same 30 ms (2 symbols);
- sysinfo(2) free memory, while the sender either holds 64 MiB more or not, for the same
  30 ms (2 symbols): refused in bwrap boxes, open in Docker's.

Each symbol is decoded from the measurement by the nearest class mean (means learnt on
the first half of the turns, decoding scored on the second), and the bench prints the
mutual information between sent and decoded symbols (bits per turn: at most 3 for
thinking time, 1 for the others) and the decoding accuracy.
Run with `.venv/bin/python bench/side_channels.py` (as root: boxes need cgroups).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from sandbox.backends import BoxSpec, SandboxError, get_backend  # noqa: E402
from sandbox.limits import limits_for  # noqa: E402
from sandbox.referee import BoxBot  # noqa: E402

SENDER = """\
import time
from agon_bot import run

HELD = []

def spin(seconds):
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        pass

def sweep(seconds):
    memory = bytearray(32 << 20)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        memory[::64] = bytes(len(memory) // 64)

def act(observation, legal_actions):
    channel, symbol = observation["channel"], observation["symbol"]
    if channel == "thinking time":
        spin(symbol * 0.010)
    elif channel == "CPU caches":
        (sweep if symbol else spin)(0.030)
    else:
        HELD.clear()
        if symbol:
            HELD.append(bytearray(b"\\1" * (64 << 20)))
        spin(0.030)
    return legal_actions[0]

run(act)
"""

OBSERVER = """\
import ctypes, json, sys, time
from agon_bot import run

BUFFER = bytearray(4 << 20)
LIBC = ctypes.CDLL(None, use_errno=True)
last_end = None

def free_memory():
    info = (ctypes.c_ulong * 32)()
    if LIBC.sysinfo(info) != 0:
        return None
    return info[5]  # freeram: after uptime and the three loads

def act(observation, legal_actions):
    global last_end
    started = time.perf_counter()
    BUFFER[::64]
    probe = time.perf_counter() - started
    gap = None if last_end is None else started - last_end
    print("M " + json.dumps({"gap": gap, "probe": probe, "free": free_memory()}), file=sys.stderr)
    BUFFER[::64]  # primes the caches for the next probe
    last_end = time.perf_counter()
    return legal_actions[0]

run(act)
"""

CHANNELS = {
    "thinking time": (8, "gap"),
    "CPU caches": (2, "probe"),
    "sysinfo free memory": (2, "free"),
}
"""Each channel: how many symbols the sender uses, and which measurement carries them."""


def measure(backend_name: str, channel: str, turns: int, work: Path) -> tuple[list[int], list]:
    """The symbols sent at each turn, and what the observer saw after each."""
    backend = get_backend(backend_name)
    limits = limits_for("akropolis", {"log_bytes": 8 << 20, "turn_seconds": 5})
    symbols_count, key = CHANNELS[channel]
    rng = random.Random(7)
    bots = {}
    for name, source in (("observer", OBSERVER), ("sender", SENDER)):
        folder = work / name
        folder.mkdir(mode=0o755, exist_ok=True)
        folder.chmod(0o755)
        (folder / "main.py").write_text(source)
        (folder / "main.py").chmod(0o644)
        bots[name] = BoxBot(backend.open(BoxSpec(folder, limits, label=name)), limits)
    sent = []
    try:
        for bot in bots.values():
            bot.start({"game": "akropolis", "player": 0, "players": 2, "options": {}})
        for _ in range(turns + 1):
            bots["observer"].act({}, [0])
            symbol = rng.randrange(symbols_count)
            sent.append(symbol)
            bots["sender"].act({"channel": channel, "symbol": symbol}, [0])
        bots["observer"].act({}, [0])
    finally:
        for bot in bots.values():
            bot.close()
    seen = [
        json.loads(line[2:])
        for line in bots["observer"].log().splitlines()
        if line.startswith("M ")
    ]
    # Measurement i+1 is the first one after the sender's turn i.
    if key == "free":
        values = [
            None if a["free"] is None else b["free"] - a["free"]
            for a, b in itertools.pairwise(seen)
        ]
    else:
        values = [m[key] for m in seen[1:]]
    return sent[1:], values[1:]  # the first turns hold both boxes' start


def decode(sent: list[int], values: list) -> tuple[float, float] | None:
    """Mutual information (bits per turn) and accuracy of nearest-mean decoding."""
    if any(v is None for v in values):
        return None
    half = len(sent) // 2
    means = {}
    for symbol in set(sent):
        learnt = [v for s, v in zip(sent[:half], values[:half], strict=True) if s == symbol]
        means[symbol] = statistics.fmean(learnt) if learnt else math.inf
    decoded = [min(means, key=lambda s: abs(means[s] - v)) for v in values[half:]]
    pairs = list(zip(sent[half:], decoded, strict=True))
    joint, sent_counts, decoded_counts = Counter(pairs), Counter(sent[half:]), Counter(decoded)
    total = len(pairs)
    information = sum(
        n / total * math.log2(n * total / (sent_counts[s] * decoded_counts[d]))
        for (s, d), n in joint.items()
    )
    return information, sum(s == d for s, d in pairs) / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=200, help="sender turns per channel")
    parser.add_argument("--backends", default="bwrap,docker")
    args = parser.parse_args()
    print(f"{args.turns} sender turns per channel; decoding scored on the second half\n")
    print(f"{'backend':<9}{'channel':<22}{'bits/turn':>10}{'accuracy':>10}  notes")
    for name in args.backends.split(","):
        for channel, (symbols_count, _) in CHANNELS.items():
            with tempfile.TemporaryDirectory() as work:
                Path(work).chmod(0o755)
                try:
                    sent, values = measure(name, channel, args.turns, Path(work))
                except SandboxError as error:
                    print(f"{name:<9}unavailable: {error}")
                    break
            decoded = decode(sent, values)
            if decoded is None:
                print(f"{name:<9}{channel:<22}{'closed':>10}{'':>10}  refused in the box")
                continue
            information, accuracy = decoded
            note = f"chance {1 / symbols_count:.2f}"
            if channel == "thinking time":
                jitter = statistics.pstdev(v - s * 0.010 for s, v in zip(sent, values, strict=True))
                note += f"; gap minus thinking time: sd {jitter * 1e3:.2f} ms"
            print(f"{name:<9}{channel:<22}{information:>10.2f}{accuracy:>10.2f}  {note}")


if __name__ == "__main__":
    main()
