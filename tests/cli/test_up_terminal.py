"""`agon up`'s terminal keeps to its own lines: what its children print (Celery's banner,
every request and match) goes to the log file, and reaches the terminal only as the last
lines of a child that stopped on its own. (The whole command: tests/platform/pipeline/
test_agon_up.py.)"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import threading
import time
from pathlib import Path

from agon.cli.up import address_line
from agon.cli.up_processes import LOG_FILE, Child, Console, Supervisor, open_log

BANNER = "import sys\nfor n in range(30): print(f'banner line {n}')\nsys.exit(3)\n"
ROUTINE = (
    "print('Task agon.ladders.tasks.matchmaking[ab-12] received'); "
    "print('Task agon.matches.tasks.execute_queued_match[cd-34] succeeded in 1.2s: None')"
)


def supervised(tmp_path: Path, *children: Child) -> tuple[Supervisor, io.StringIO, Path]:
    terminal = io.StringIO()
    log_path, log = open_log(tmp_path)
    console = Console(terminal, log)
    return Supervisor(list(children), console, {}, tmp_path), terminal, log_path


def wait_exited(supervisor: Supervisor) -> Child:
    deadline = time.monotonic() + 20
    while (gone := supervisor.exited()) is None:
        assert time.monotonic() < deadline, "the child did not stop"
        time.sleep(0.05)
    return gone


def test_the_childrens_lines_go_to_the_log_not_to_the_terminal(tmp_path: Path) -> None:
    supervisor, terminal, log_path = supervised(
        tmp_path, Child("worker", [sys.executable, "-c", ROUTINE])
    )
    supervisor.console.say("starting")
    supervisor.start()
    gone = wait_exited(supervisor)
    assert gone.reader is not None
    gone.reader.join(timeout=5)
    supervisor.stop(1, threading.Event())
    assert terminal.getvalue() == "  agon | starting\n"
    log = log_path.read_text()
    assert "  agon | starting" in log  # the log has the whole story
    task_line = "Task agon.matches.tasks.execute_queued_match[cd-34] succeeded in 1.2s: None"
    assert f"worker | {task_line}" in log
    assert "matchmaking" not in log  # a periodic task that found nothing to do


def test_a_child_that_stops_on_its_own_shows_its_last_lines(tmp_path: Path) -> None:
    supervisor, terminal, log_path = supervised(
        tmp_path, Child("web", [sys.executable, "-c", BANNER])
    )
    supervisor.start()
    gone = wait_exited(supervisor)
    supervisor.show_last_lines(gone)
    supervisor.stop(1, threading.Event())
    shown = terminal.getvalue().splitlines()
    assert shown == [f"   web | banner line {n}" for n in range(10, 30)]
    assert "banner line 0" in log_path.read_text()


def test_the_log_of_the_last_run_is_kept_aside(tmp_path: Path) -> None:
    (tmp_path / LOG_FILE).write_text("the last run\n")
    path, log = open_log(tmp_path)
    log.close()
    assert path == tmp_path / LOG_FILE and path.read_text() == ""
    assert (tmp_path / f"{LOG_FILE}.1").read_text() == "the last run\n"


def test_the_address_line_names_the_site_the_api_and_the_log() -> None:
    line = address_line("http://127.0.0.1:8000", "var/agon-up.log")
    assert line.startswith("open http://127.0.0.1:8000/ ")
    assert "http://127.0.0.1:8000/api/" in line and "log: var/agon-up.log" in line


def test_a_terminal_that_is_gone_still_lets_agon_up_stop_its_children(tmp_path: Path) -> None:
    """The pipe a harness read `agon up` through closed (the harness killed): each line
    is still logged, and stopping still reaches every child. Raised from a line, the
    error skipped the stop, and the children ran on for good."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    log_path, log = open_log(tmp_path)
    gone = os.fdopen(write_end, "w")
    console = Console(gone, log)
    sleeper = Child("worker", [sys.executable, "-c", "import time; time.sleep(60)"])
    supervisor = Supervisor([sleeper], console, {}, tmp_path)
    supervisor.start()
    console.say("stopping")
    console.say("still here")
    supervisor.stop(10, threading.Event())
    assert not sleeper.running
    log.close()
    with contextlib.suppress(BrokenPipeError):
        gone.close()  # what is left in its buffer cannot go anywhere either
    lines = log_path.read_text()
    assert "agon | stopping" in lines and "agon | still here" in lines
