"""The bwrap backend's fork server (AGON_SANDBOX_FORK_SERVER): a box it makes shows the
bot what bubblewrap's shows, nothing of one box reaches the next, and the server itself
refuses what it cannot do. (The hostile suite runs on it too: the `bwrap-fork` backend
of tests/sandbox/support.py.)"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import fork_server
from sandbox.backends import bwrap
from sandbox.backends.base import BoxSpec, SandboxError
from sandbox.backends.bwrap import BwrapBackend, fork_server_wanted
from sandbox.fork_server import ForkedBox, ForkServer
from sandbox.limits import limits_for
from tests.sandbox.support import BOTS, require_backend


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


def run_to_the_end(backend: BwrapBackend, folder: Path) -> tuple[int | None, str]:
    """Open a box of the bot in `folder`, let it run to its end; its exit code and log."""
    box = backend.open(BoxSpec(folder, limits_for("akropolis")))
    try:
        box.stdin.close()
        log = b""
        while chunk := os.read(box.stderr_fd, 1 << 16):
            log += chunk
        deadline = time.monotonic() + 10
        while box.exit_code() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        return box.exit_code(), log.decode()
    finally:
        box.close()


def test_a_forked_box_shows_the_bot_exactly_what_a_bubblewrap_box_shows(bot_folder: Path) -> None:
    write_bot(bot_folder, (BOTS / "box_view.py").read_text())
    code, forked = run_to_the_end(BwrapBackend(fork_server=True), bot_folder)
    assert code == 0, forked
    _, started = run_to_the_end(BwrapBackend(fork_server=False), bot_folder)
    assert forked.splitlines() == started.splitlines()
    for line in (
        "CapEff:\t0000000000000000",
        "CapBnd:\t0000000000000000",
        "CapAmb:\t0000000000000000",
        "NoNewPrivs:\t1",
        "Seccomp:\t2",
        "Seccomp_filters:\t1",
        "open fds: ['0=pipe', '1=pipe', '2=pipe']",  # nothing of the server's
        "a user namespace of its own: False (No space left on device)",  # max 0
    ):
        assert line in forked.splitlines(), line


def test_the_backend_makes_forked_boxes_when_asked(bot_folder: Path) -> None:
    write_bot(bot_folder, "")
    box = BwrapBackend(fork_server=True).open(BoxSpec(bot_folder, limits_for("akropolis")))
    try:
        assert isinstance(box, ForkedBox)
    finally:
        box.close()


def test_each_forked_box_draws_its_own_random_numbers(bot_folder: Path) -> None:
    write_bot(bot_folder, "import random, sys\nsys.stderr.write(repr(random.random()))\n")
    backend = BwrapBackend(fork_server=True)
    draws = {run_to_the_end(backend, bot_folder)[1] for _ in range(3)}
    assert len(draws) == 3


@pytest.mark.parametrize(
    ("source", "code"),
    [
        ("import sys\nsys.exit(3)\n", 3),
        ("raise KeyError('x')\n", 1),
        ("import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n", 0),  # PID 1
        ("import os\nos.abort()\n", None),  # a signal: which one, as bubblewrap's box
    ],
)
def test_a_bot_ends_as_it_does_in_a_bubblewrap_box(
    bot_folder: Path, source: str, code: int | None
) -> None:
    write_bot(bot_folder, source)
    forked = run_to_the_end(BwrapBackend(fork_server=True), bot_folder)
    started = run_to_the_end(BwrapBackend(fork_server=False), bot_folder)
    assert forked[0] == started[0] == (started[0] if code is None else code)
    assert forked[0] is not None
    # The same log but for the line numbers of the start's own code in a traceback.
    assert forked[1].splitlines()[-3:] == started[1].splitlines()[-3:]


def test_the_server_refuses_an_option_it_cannot_apply(
    bot_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_bot(bot_folder, "import sys\nsys.stderr.write('the bot ran')\n")
    real = bwrap.bwrap_argv

    def with_an_unknown_option(*args: object) -> list[str]:
        argv = real(*args)  # type: ignore[arg-type]
        return [*argv[:1], "--bind-data", "3", "/secret", *argv[1:]]

    monkeypatch.setattr(bwrap, "bwrap_argv", with_an_unknown_option)
    code, log = run_to_the_end(BwrapBackend(fork_server=True), bot_folder)
    assert code == 1
    assert "cannot apply the bubblewrap option --bind-data" in log
    assert "the bot ran" not in log


def test_a_server_that_died_is_started_again_and_takes_its_boxes_with_it(
    bot_folder: Path,
) -> None:
    write_bot(bot_folder, "import time\ntime.sleep(60)\n")
    backend = BwrapBackend(fork_server=True)
    box = backend.open(BoxSpec(bot_folder, limits_for("akropolis")))
    try:
        server = bwrap.fork_server(shutil.which("bwrap") or "bwrap")
        deadline = time.monotonic() + 10
        while not box.cgroup.pids_inside() and time.monotonic() < deadline:  # type: ignore[union-attr]
            time.sleep(0.005)
        server.stop()
        while box.exit_code() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        assert box.exit_code() is not None
        while box.cgroup.pids_inside() and time.monotonic() < deadline:  # type: ignore[union-attr]
            time.sleep(0.005)
        assert box.cgroup.pids_inside() == []  # type: ignore[union-attr]
    finally:
        box.close()
    write_bot(bot_folder, "")
    assert run_to_the_end(backend, bot_folder)[0] == 0
    assert bwrap.fork_server(shutil.which("bwrap") or "bwrap") is not server


@pytest.mark.parametrize(
    ("value", "wanted"),
    [
        ("", None),
        ("auto", None),
        (" Auto ", None),
        ("0", False),
        ("off", False),
        ("1", True),
        ("true", True),
        ("On", True),
    ],
)
def test_the_setting_reads_on_off_and_auto(value: str, wanted: bool | None) -> None:
    assert fork_server_wanted({"AGON_SANDBOX_FORK_SERVER": value}) is wanted


def test_the_setting_refuses_anything_else() -> None:
    with pytest.raises(ValueError, match="AGON_SANDBOX_FORK_SERVER"):
        fork_server_wanted({"AGON_SANDBOX_FORK_SERVER": "maybe"})


def test_a_forked_referee_leaves_its_parents_server_to_its_parent(bot_folder: Path) -> None:
    write_bot(bot_folder, "")
    assert run_to_the_end(BwrapBackend(fork_server=True), bot_folder)[0] == 0
    server = bwrap.fork_server(shutil.which("bwrap") or "bwrap")
    child = os.fork()
    if child == 0:  # the child's copy of the socket is closed at once
        os._exit(0 if server.control.fileno() == -1 else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert server.alive()


def test_a_server_that_cannot_start_says_why(
    bot_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def stagings() -> set[Path]:
        return set(Path(tempfile.gettempdir()).glob(f"{ForkServer.staging_prefix()}*"))

    before = stagings()
    monkeypatch.setattr(bwrap, "_servers", {})
    monkeypatch.setattr(fork_server, "SERVER_MODULES", ("json", "no_such_module_here"))
    write_bot(bot_folder, "")
    with pytest.raises(SandboxError, match=r"(?s)did not start.*no_such_module_here"):
        BwrapBackend(fork_server=True).open(BoxSpec(bot_folder, limits_for("akropolis")))
    assert stagings() == before  # the failed server's folder is gone


@pytest.fixture
def unprobed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This test's own probe, and no server of this process yet (the one it starts is
    stopped after it)."""
    monkeypatch.setattr(bwrap, "_probed", {})
    monkeypatch.setattr(bwrap, "_servers", {})
    yield
    bwrap.stop_fork_server()


@pytest.mark.usefixtures("unprobed")
def test_without_mount_setattr_boxes_are_started_by_bubblewrap_said_once(
    bot_folder: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(bwrap, "_kernel_problem", lambda: "Linux 5.10 has no mount_setattr(2)")
    write_bot(bot_folder, "")
    backend = BwrapBackend(fork_server=None)  # the default
    with caplog.at_level(logging.WARNING, logger=bwrap.__name__):
        for _ in range(2):
            box = backend.open(BoxSpec(bot_folder, limits_for("akropolis")))
            assert not isinstance(box, ForkedBox)
            box.close()
    said = [record.getMessage() for record in caplog.records]
    assert len(said) == 1, said
    assert "boxes are started by bubblewrap instead" in said[0]
    assert "Linux 5.10 has no mount_setattr(2)" in said[0]
    assert backend.box_path() == (
        "bubblewrap (the fork server cannot work here: Linux 5.10 has no mount_setattr(2))"
    )
    assert not bwrap.fork_server_running()


@pytest.mark.usefixtures("unprobed")
def test_demanded_where_it_cannot_work_the_sandbox_fails_with_the_reason(
    bot_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bwrap, "_kernel_problem", lambda: "Linux 5.10 has no mount_setattr(2)")
    with pytest.raises(SandboxError, match=r"AGON_SANDBOX_FORK_SERVER=1, but .* 5\.10"):
        BwrapBackend(fork_server=True).check()
    assert BwrapBackend(fork_server=False).box_path() == "bubblewrap (AGON_SANDBOX_FORK_SERVER=0)"


@pytest.mark.usefixtures("unprobed")
def test_the_probe_falls_back_when_the_server_cannot_start(
    bot_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fork_server, "SERVER_MODULES", ("json", "no_such_module_here"))
    write_bot(bot_folder, "")
    backend = BwrapBackend(fork_server=None)
    box = backend.open(BoxSpec(bot_folder, limits_for("akropolis")))
    box.close()
    assert not isinstance(box, ForkedBox)
    assert "did not start" in backend.box_path()
    assert "no_such_module_here" in backend.box_path()


@pytest.mark.usefixtures("unprobed")
def test_the_probe_is_a_real_box_and_its_server_serves_the_next(bot_folder: Path) -> None:
    write_bot(bot_folder, "")
    backend = BwrapBackend(fork_server=None)
    assert backend.forks_boxes()
    assert backend.box_path() == "fork server"
    server = bwrap.fork_server(shutil.which("bwrap") or "bwrap")
    box = backend.open(BoxSpec(bot_folder, limits_for("akropolis")))
    box.close()
    assert isinstance(box, ForkedBox)
    assert bwrap.fork_server(shutil.which("bwrap") or "bwrap") is server
