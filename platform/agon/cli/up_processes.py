"""`agon up`'s children (web, worker, beat), its terminal and its log: the terminal shows
only `agon up`'s own lines; every child's lines go to the log file under its name (the
routine ones left out), and its last ones also to the terminal if it stops on its own.
A stop ends every process a child started."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, ClassVar

from sandbox.cgroups import reap_orphans

ROUTINE_TASK_LINE = re.compile(
    r"Task agon\.(ladders\.tasks\.matchmaking|matches\.tasks\.requeue_stuck_matches)"
    r"\[[^]]*\] (received|succeeded in [0-9.]+s: (0|\[\]))$"
)
"""The worker's lines about a periodic task that found nothing to do: not shown."""
TAIL_LINES = 20


# --- output -------------------------------------------------------------------------------


class Console:
    """Lines from several threads, each with a name prefix (coloured on a terminal); with
    a log, `say` also writes there and `log` writes there only (with the time)."""

    COLOURS: ClassVar[dict[str, str]] = {"agon": "1", "web": "36", "worker": "32", "beat": "35"}

    def __init__(self, stream: IO[str], log: IO[str] | None = None) -> None:
        self.stream = stream
        self.log_stream = log
        self.lock = threading.Lock()
        self.colour = stream.isatty() and os.environ.get("NO_COLOR", "") == ""
        self.stream_gone = False

    def line(self, name: str, text: str) -> None:
        """On the terminal and in the log."""
        self.terminal(name, text)
        self.log(name, text)

    def terminal(self, name: str, text: str) -> None:
        """On the terminal only."""
        prefix = f"{name:>6} |"
        if self.colour:
            prefix = f"\033[{self.COLOURS.get(name, '0')}m{prefix}\033[0m"
        with self.lock:
            if self.stream_gone:
                return
            try:
                self.stream.write(f"{prefix} {text}\n")
                self.stream.flush()
            except OSError:
                # The terminal or the pipe read by a harness is gone: `agon up` goes on
                # (the log keeps every line) and can still stop its children; raised
                # here, it left them running for good.
                self.stream_gone = True

    def log(self, name: str, text: str) -> None:
        """In the log only (nowhere without one)."""
        if self.log_stream is None:
            return
        moment = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
        with self.lock:
            self.log_stream.write(f"{moment} {name:>6} | {text}\n")
            self.log_stream.flush()

    def say(self, text: str) -> None:
        self.line("agon", text)


LOG_FILE = "agon-up.log"
"""The children's output, under the data folder; the previous run's is kept as .1."""


def open_log(folder: Path) -> tuple[Path, IO[str]]:
    """A fresh log file in `folder` (the last run's moved aside), open for appending."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOG_FILE
    if path.exists():
        path.replace(path.with_name(LOG_FILE + ".1"))
    return path, path.open("a", encoding="utf-8", errors="replace")


# --- child processes ------------------------------------------------------------------------


@dataclass
class Child:
    name: str
    argv: list[str]
    process: subprocess.Popen[bytes] | None = None
    reader: threading.Thread | None = None
    last_lines: deque[str] = field(default_factory=lambda: deque(maxlen=TAIL_LINES))
    """Its latest lines: shown on the terminal if it stops on its own."""

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
                self.console.log(child.name, text)
                child.last_lines.append(text)

    def show_last_lines(self, child: Child) -> None:
        """A child that stopped on its own: its last lines, on the terminal too."""
        if child.reader is not None:
            child.reader.join(timeout=2)  # the rest of its output
        for text in list(child.last_lines):
            self.console.terminal(child.name, text)

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
