"""`agon up`'s children (web, worker, beat) and its terminal: each child's lines under
its name, the routine ones left out, and a stop that ends every process a child started."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, ClassVar

ROUTINE_TASK_LINE = re.compile(
    r"Task agon\.(ladders\.tasks\.matchmaking|matches\.tasks\.requeue_stuck_matches)"
    r"\[[^]]*\] (received|succeeded in [0-9.]+s: (0|\[\]))$"
)
"""The worker's lines about a periodic task that found nothing to do: not shown."""


# --- output -------------------------------------------------------------------------------


class Console:
    """Lines from several threads, each with a name prefix (coloured on a terminal)."""

    COLOURS: ClassVar[dict[str, str]] = {"agon": "1", "web": "36", "worker": "32", "beat": "35"}

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.lock = threading.Lock()
        self.colour = stream.isatty() and os.environ.get("NO_COLOR", "") == ""

    def line(self, name: str, text: str) -> None:
        prefix = f"{name:>6} |"
        if self.colour:
            prefix = f"\033[{self.COLOURS.get(name, '0')}m{prefix}\033[0m"
        with self.lock:
            self.stream.write(f"{prefix} {text}\n")
            self.stream.flush()

    def say(self, text: str) -> None:
        self.line("agon", text)


# --- child processes ------------------------------------------------------------------------


@dataclass
class Child:
    name: str
    argv: list[str]
    process: subprocess.Popen[bytes] | None = None
    reader: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


@dataclass
class Supervisor:
    """Starts the children in their own sessions (a Ctrl-C in the terminal reaches only
    `agon up`, which then stops them in order), streams their output, stops them."""

    children: list[Child]
    console: Console
    env: dict[str, str]
    cwd: Path

    def start(self) -> None:
        for child in self.children:
            child.process = subprocess.Popen(  # noqa: S603 - our own argv, no shell
                child.argv,
                cwd=self.cwd,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            child.reader = threading.Thread(
                target=self._stream, args=(child,), name=f"agon-up-{child.name}", daemon=True
            )
            child.reader.start()

    def _stream(self, child: Child) -> None:
        assert child.process is not None and child.process.stdout is not None  # noqa: S101
        for raw in child.process.stdout:
            text = raw.decode(errors="replace").rstrip()
            if not ROUTINE_TASK_LINE.search(text):
                self.console.line(child.name, text)

    def exited(self) -> Child | None:
        """The first child that is gone, if any."""
        return next((c for c in self.children if c.process and not c.running), None)

    def stop(self, timeout: float, now: threading.Event) -> None:
        """SIGTERM to each child; after `timeout` (or when `now` is set) SIGKILL to
        whatever is left of its process group."""
        for child in self.children:
            if child.running:
                assert child.process is not None  # noqa: S101
                child.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        killed = False
        while any(c.running for c in self.children):
            if now.is_set() or time.monotonic() > deadline:
                names = ", ".join(c.name for c in self.children if c.running)
                self.console.say(f"killing {names}")
                killed = True
                break
            time.sleep(0.1)
        referees: set[int] = set()
        for child in self.children:
            if child.process is None:
                continue
            referees |= _children_of(child.process.pid)
            # Also what the child left behind (the worker's pool, gunicorn's workers).
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.process.pid, signal.SIGKILL)
            child.process.wait()
            if child.reader is not None:
                child.reader.join(timeout=2)
        if killed:
            # A box frozen between two turns does not die with its referee (a process of
            # the worker's pool): once those are gone, kill and remove such boxes.
            from sandbox.cgroups import reap_orphans

            deadline = time.monotonic() + 10
            while any(_alive(pid) for pid in referees) and time.monotonic() < deadline:
                time.sleep(0.05)
            reap_orphans()


def _children_of(pid: int) -> set[int]:
    children: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            children |= {int(child) for child in (task / "children").read_text().split()}
    return children


def _alive(pid: int) -> bool:
    """Whether the process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"
