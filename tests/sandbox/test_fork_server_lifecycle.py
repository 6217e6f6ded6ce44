"""The fork server's life: it ends with the process it serves (killed or recycled, it
leaves no process behind), the self-test's server is stopped, and a server that ended
under a match fails that match as the sandbox's, then is replaced with one log line."""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.backends import bwrap
from sandbox.backends.base import BoxSpec, SandboxError
from sandbox.backends.bwrap import BwrapBackend
from sandbox.fork_server import ForkedBox
from sandbox.limits import limits_for
from sandbox.runner import Program, run_match
from tests.sandbox.support import require_backend

ROOT = Path(__file__).resolve().parents[2]
SLEEPER = "import time\ntime.sleep(300)\n"

REFEREE = """\
import json, sys
from pathlib import Path
from sandbox.backends.base import BoxSpec
from sandbox.backends.bwrap import BwrapBackend, fork_server
from sandbox.limits import limits_for

box = BwrapBackend(fork_server=True).open(BoxSpec(Path(sys.argv[1]), limits_for("akropolis")))
server = fork_server("bwrap")
print(json.dumps({"server": server.process.pid, "staging": str(server.staging)}), flush=True)
sys.stdin.read()  # until the test kills this referee
"""

NEXT_REFEREE = """\
import sys
from pathlib import Path
from sandbox.backends.base import BoxSpec
from sandbox.backends.bwrap import BwrapBackend
from sandbox.limits import limits_for

BwrapBackend(fork_server=False).open(BoxSpec(Path(sys.argv[1]), limits_for("akropolis"))).close()
"""


@pytest.fixture
def bot_folder(tmp_path: Path) -> Path:
    require_backend("bwrap")
    folder = tmp_path / "bot"
    folder.mkdir()
    folder.chmod(0o755)
    return folder


def write_bot(folder: Path, source: str) -> None:
    (folder / "main.py").write_text(source)
    (folder / "main.py").chmod(0o644)


def wait_until(condition: object, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:  # type: ignore[operator]
        time.sleep(0.01)


def start_time(pid: int) -> str | None:
    """The kernel's start time of a live process (tells a pid from a reused one)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    state, *fields = stat.rsplit(")", 1)[1].split()
    return None if state in ("Z", "X") else fields[18]


def process_tree(root: int) -> dict[int, str]:
    """The live processes under `root`, itself included: pid -> start time."""
    found: dict[int, str] = {}
    queue = [root]
    while queue:
        pid = queue.pop()
        started = start_time(pid)
        if started is None:
            continue
        found[pid] = started
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                queue += [int(child) for child in (task / "children").read_text().split()]
            except (FileNotFoundError, ProcessLookupError):
                continue
    return found


def assert_processes_gone(processes: dict[int, str], *, what: str, timeout: float) -> None:
    def survivors() -> list[int]:
        return [pid for pid, started in processes.items() if start_time(pid) == started]

    wait_until(lambda: not survivors(), timeout)
    assert not survivors(), f"{what}: still there: {describe(survivors())}"


def describe(pids: list[int]) -> list[str]:
    """Each process as its pid, state, parent and command line (for a failure's message)."""
    described = []
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except (FileNotFoundError, ProcessLookupError):
            described.append(f"{pid} (gone)")
            continue
        shown = command.decode(errors="replace")
        described.append(f"{pid} {stat[0]} parent {stat[1]}: {shown[:120]}...{shown[-200:]}")
    return described


def box_is_running(box: ForkedBox) -> bool:
    return bool(box.cgroup.pids_inside())


@pytest.fixture
def own_temporary_folder() -> Iterator[Path]:
    """A temporary folder for this test's referees, which a box's user can reach: any
    box opened elsewhere (another test worker) sweeps a dead referee's folders from the
    shared one, and would take the staging folder this test watches."""
    folder = Path(tempfile.mkdtemp(prefix="agon-lifecycle-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_a_server_dies_with_its_referee_killed_by_sigkill(
    bot_folder: Path, own_temporary_folder: Path
) -> None:
    write_bot(bot_folder, SLEEPER)
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(own_temporary_folder)}
    referee = subprocess.Popen(  # noqa: S603 - a fixed argv
        [sys.executable, "-c", REFEREE, str(bot_folder)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=environment,
    )
    assert referee.stdout is not None
    said = json.loads(referee.stdout.readline())
    # The server (bubblewrap, the interpreter), a box's monitor and the bot: 4 at least,
    # once the box's child has forked the bot (`open` returns before it may have).
    wait_until(lambda: len(process_tree(said["server"])) >= 4)
    below_the_referee = process_tree(referee.pid)
    server = process_tree(said["server"])
    assert said["server"] in below_the_referee
    assert len(server) >= 4, server
    referee.send_signal(signal.SIGKILL)
    referee.wait()
    assert_processes_gone(below_the_referee, what="the server and its boxes", timeout=20)
    # Its staging folder goes with the next referee's first box.
    assert Path(said["staging"]).parent == own_temporary_folder
    assert Path(said["staging"]).exists()
    write_bot(bot_folder, "")
    subprocess.run(  # noqa: S603 - a fixed argv
        [sys.executable, "-c", NEXT_REFEREE, str(bot_folder)],
        cwd=ROOT,
        env={**environment, "AGON_SANDBOX_FORK_SERVER": "0"},
        check=True,
        timeout=60,
    )
    assert not Path(said["staging"]).exists()


def _referee_that_exits_as_a_pool_process(folder: str) -> None:
    """A Celery prefork child recycled after its last task (max-tasks-per-child): it
    ends with os._exit, no atexit handler run."""
    box = BwrapBackend(fork_server=True).open(BoxSpec(Path(folder), limits_for("akropolis")))
    box.stdin.close()
    while os.read(box.stderr_fd, 1 << 16):
        pass
    box.close()
    server = bwrap.fork_server("bwrap")
    print(json.dumps(server.process.pid), flush=True)
    os._exit(0)


def test_a_recycled_pool_process_leaves_no_server(bot_folder: Path) -> None:
    write_bot(bot_folder, "")
    read, write = os.pipe()
    context = multiprocessing.get_context("fork")
    child = context.Process(target=_redirected, args=(write, str(bot_folder)))
    child.start()
    os.close(write)
    with os.fdopen(read) as said:
        line = said.readline()
    server_pid = json.loads(line)
    server = process_tree(server_pid)
    child.join(30)
    assert child.exitcode == 0
    assert_processes_gone(server, what="the recycled process's server", timeout=20)


def _redirected(fd: int, folder: str) -> None:
    os.dup2(fd, 1)
    sys.stdout = os.fdopen(1, "w")
    _referee_that_exits_as_a_pool_process(folder)


def test_stop_fork_server_stops_this_process_s_server_and_its_boxes(bot_folder: Path) -> None:
    write_bot(bot_folder, SLEEPER)
    box = BwrapBackend(fork_server=True).open(BoxSpec(bot_folder, limits_for("akropolis")))
    assert isinstance(box, ForkedBox)
    try:
        assert bwrap.fork_server_running()
        server = bwrap.fork_server("bwrap")
        staging = server.staging
        processes = process_tree(server.process.pid)
        wait_until(lambda: box_is_running(box))
        assert bwrap.stop_fork_server() is True
        assert not bwrap.fork_server_running()
        assert bwrap.stop_fork_server() is False  # none left to stop
        assert_processes_gone(processes, what="the stopped server", timeout=20)
        assert not staging.exists()
        wait_until(lambda: box.exit_code() is not None)
        assert box.sandbox_failure() is not None
    finally:
        box.close()


def _kill_the_server_once_the_box_runs(pid: int, stop: threading.Event) -> None:
    """SIGKILL to the server `pid` (bubblewrap's process group: the server's
    interpreter is in it, the boxes are not) once a box runs below it."""
    idle = len(process_tree(pid))
    while not stop.is_set():
        if len(process_tree(pid)) >= idle + 2:  # a box's monitor and its bot
            os.killpg(pid, signal.SIGKILL)
            return
        time.sleep(0.01)


def test_a_server_killed_under_a_match_fails_the_match_as_the_sandbox_s_and_is_replaced(
    bot_folder: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write_bot(bot_folder, SLEEPER)  # never answers: only the server's end ends its turn
    package = shutil.make_archive(str(bot_folder.parent / "bot"), "zip", bot_folder)
    backend = BwrapBackend(fork_server=True)
    backend.forks_boxes()  # the probe done, and the server running, as in a worker
    server = bwrap.fork_server("bwrap")
    stop = threading.Event()
    killer = threading.Thread(
        target=_kill_the_server_once_the_box_runs, args=(server.process.pid, stop)
    )
    killer.start()
    started = time.monotonic()
    try:
        with pytest.raises(SandboxError, match="the fork server that made this box ended"):
            run_match(
                game_id="akropolis",
                seed=1,
                options={},
                programs=[
                    Program(bot_id="sleeper", package=Path(package).read_bytes()),
                    Program.builtin("random"),
                ],
                sandbox=backend,
                limits={"first_turn_seconds": 60, "turn_seconds": 60},
                workdir=bot_folder.parent,
            )
    finally:
        stop.set()
        killer.join()
    # Not the first turn's 60 s: the box ended with its server.
    assert time.monotonic() - started < 50
    write_bot(bot_folder, "")
    with caplog.at_level(logging.WARNING, logger=bwrap.__name__):
        box = backend.open(BoxSpec(bot_folder, limits_for("akropolis")))
        box.close()
    said = [record.getMessage() for record in caplog.records]
    assert len(said) == 1, said
    assert "the fork server (pid" in said[0]
    assert "starting a new one" in said[0]
