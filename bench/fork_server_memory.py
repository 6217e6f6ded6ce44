"""The bwrap fork server over many boxes: its interpreter's resident memory and open
descriptors after every `--every` boxes, so that a leak (a status socket kept, a page
written per box, a descriptor not closed) shows as growth.

Each box runs a bot that imports `agon_bot` and answers one mid-game turn as a real
bot's first turn does (the server forks it; nothing the box does touches the server's
pages, but the server's own work per box, the request and the fork, does); the boxes
are made one after the other by one backend, as a referee's matches are.

    .venv/bin/python bench/fork_server_memory.py [--boxes 500] [--every 100]

As root (boxes need cgroups).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sandbox.backends import bwrap  # noqa: E402 - after the checkout is on the path
from sandbox.backends.base import BoxSpec  # noqa: E402
from sandbox.limits import limits_for  # noqa: E402

BOT = (
    "import sys\n"
    "import agon_bot\n"
    "for line in sys.stdin:\n"
    "    if '\"turn\"' in line:\n"
    "        sys.stdout.write('{\"action\": null}\\n')\n"
    "        sys.stdout.flush()\n"
)
TURN = b'{"type": "turn", "observation": {}, "legal_actions": [null]}\n'


def server_interpreter(server: bwrap.ForkServer) -> int:
    """The pid of the server's interpreter, below its bubblewrap processes."""
    queue = [server.process.pid]
    while queue:
        pid = queue.pop(0)
        if Path(f"/proc/{pid}/comm").read_text().strip().startswith("python"):
            return pid
        for task in Path(f"/proc/{pid}/task").glob("*"):
            queue += [int(child) for child in (task / "children").read_text().split()]
    raise RuntimeError("no interpreter below the fork server")


def memory_kib(pid: int) -> dict[str, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "RssAnon", "VmHWM"):
            fields[name] = int(value.split()[0])
    return fields


def one_box(backend: bwrap.BwrapBackend, folder: Path) -> None:
    box = backend.open(BoxSpec(folder, limits_for("akropolis")))
    try:
        box.stdin.write(TURN)
        box.stdin.flush()
        answer = b""
        while not answer.endswith(b"\n"):
            chunk = os.read(box.stdout_fd, 1 << 16)
            if not chunk:
                raise RuntimeError(f"the bot did not answer: {os.read(box.stderr_fd, 4096)!r}")
            answer += chunk
    finally:
        box.close()


def row(boxes: int, pid: int) -> tuple[int, int, int]:
    """Print and give the server's VmRSS and RssAnon (KiB) and open descriptors now."""
    figures = memory_kib(pid)
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    print(f"  {boxes:>6} {figures['VmRSS']:>10} {figures['RssAnon']:>12} {fds:>4}", flush=True)
    return figures["VmRSS"], figures["RssAnon"], fds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boxes", type=int, default=500)
    parser.add_argument("--every", type=int, default=100)
    args = parser.parse_args(argv)
    backend = bwrap.BwrapBackend(fork_server=True)
    with tempfile.TemporaryDirectory() as made:
        folder = Path(made)
        folder.chmod(0o755)
        (folder / "main.py").write_text(BOT)
        (folder / "main.py").chmod(0o644)
        one_box(backend, folder)  # the server started, its probe and first box made
        assert backend.executable is not None
        server = bwrap.fork_server(backend.executable)
        pid = server_interpreter(server)
        print(f"Fork server (pid {pid}) over {args.boxes} boxes, one after the other")
        print(f"  {'boxes':>6} {'VmRSS KiB':>10} {'RssAnon KiB':>12} {'fds':>4}")
        rows = [row(0, pid)]  # after the warm-up box: the server as it serves
        for made_so_far in range(1, args.boxes + 1):
            one_box(backend, folder)
            if made_so_far % args.every == 0 or made_so_far == args.boxes:
                rows.append(row(made_so_far, pid))
        first, last = rows[0], rows[-1]
        print(
            f"  growth: VmRSS {last[0] - first[0]:+d} KiB, "
            f"RssAnon {last[1] - first[1]:+d} KiB, fds {last[2] - first[2]:+d}"
        )
    bwrap.stop_fork_server()


if __name__ == "__main__":
    main()
