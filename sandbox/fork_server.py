"""The bwrap backend's fork server: one pre-imported interpreter per referee process that
makes each box by forking itself, so that a bot's start costs neither an interpreter's
start nor its imports (AGON_SANDBOX_FORK_SERVER; docs/threat-model.md, "How a bot
starts").

The server (`sandbox.fork_server_main`, which says what it does with a request) runs
in a bubblewrap box of its own, as uid BOX_UID, in the referee's cgroup (which the
pages it shares with every box are charged to); this module starts
it, sends it one request per box over a unix socket (the box's bubblewrap options and,
by SCM_RIGHTS, the bot's pipes and the box's `cgroup.procs`), and gives the referee a
`ForkedBox` for each. The box is the one `sandbox.backends.bwrap.bwrap_argv` describes,
option by option: the server refuses an option it cannot apply.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO

from sandbox import fork_server_main
from sandbox.backends.base import BOX_ENV, BOX_UID, SandboxError, become
from sandbox.box_start import START_FLAGS, START_FUNCTION
from sandbox.cgroups import BoxCgroup
from sandbox.seccomp import box_filter

SERVER_MODULES = (
    "json",
    "typing",
    "site",
    "importlib.machinery",
    "agon_bot",
    "engine.registry",
    "engine.akropolis.compact",
)
"""What the server imports once for every box: what a bot's interpreter imports before
main.py (`sandbox.box_start`), the bot library, and the compact form of Akropolis's
legal actions that `agon_bot.run` expands at the first turn. A bot that imports more
(the rest of the engine, NumPy) pays for it as before."""
SERVER_PREFIX = "server-"
STATUS_BYTES = 64
READY_SECONDS = 60.0


def server_program() -> str:
    """The Python the server runs (`python3 -P -S -c`), with its three arguments."""
    source = Path(fork_server_main.__file__).read_text()
    return (
        source
        + "\n\n"
        + START_FUNCTION
        + "import sys\n"
        + "serve(int(sys.argv[1]), bytes.fromhex(sys.argv[2]), sys.argv[3].split(','))\n"
        + "start('')\n"
    )


def server_argv(
    executable: str,
    python: str,
    box_options: Sequence[str],
    staging: Path,
    control_fd: int,
    program: bytes,
) -> list[str]:
    """The server's box: `box_options` (the system's folders, the libraries, /dev, as a
    bot's box shows them), the staging folder read-only at its own path, a /proc of its
    own, capabilities in its own user namespace and none in any other."""
    argv = [
        executable,
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--cap-add",
        "ALL",
        "--uid",
        str(BOX_UID),
        "--gid",
        str(BOX_UID),
        "--hostname",
        "box",
        *box_options,
        "--ro-bind",
        str(staging),
        str(staging),
        "--proc",
        "/proc",
        "--dir",
        fork_server_main.NEW_ROOT,
        "--remount-ro",
        "/",
        "--clearenv",
    ]
    for key, value in sorted(BOX_ENV.items()):
        argv += ["--setenv", key, value]
    return [
        *argv,
        "--chdir",
        "/",
        "--",
        python,
        *START_FLAGS,
        "-c",
        server_program(),
        str(control_fd),
        program.hex(),
        ",".join(SERVER_MODULES),
    ]


class ForkServer:
    """A running server and the socket to it; `open` asks it for a box."""

    def __init__(self, executable: str, python: str, box_options: Sequence[str]) -> None:
        self.staging = Path(tempfile.mkdtemp(prefix=self.staging_prefix()))
        self.staging.chmod(0o755)
        self._lock = threading.Lock()
        self._owner = os.getpid()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        log = self.staging / "server.log"
        try:
            argv = server_argv(
                executable,
                python,
                box_options,
                self.staging,
                theirs.fileno(),
                box_filter() or b"",
            )
            with log.open("wb") as log_file:
                self.process = subprocess.Popen(  # noqa: S603 - a fixed argv, never a shell line
                    argv,
                    env={},
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=log_file,
                    start_new_session=True,
                    close_fds=True,
                    pass_fds=(theirs.fileno(),),
                    preexec_fn=functools.partial(become, BOX_UID) if os.geteuid() == 0 else None,
                )
        except BaseException as error:
            ours.close()
            self.stop()
            if isinstance(error, OSError):
                raise SandboxError(f"cannot start the fork server: {error}") from error
            raise
        finally:
            theirs.close()
        self.control = ours
        self._wait_until_ready()

    def _wait_until_ready(self) -> None:
        """Until the server has imported its modules: SandboxError if it does not."""
        self.control.settimeout(READY_SECONDS)
        try:
            said = self.control.recv(STATUS_BYTES)
        except OSError:
            said = b""
        self.control.settimeout(None)
        if said != b"ready":
            log = self.log_tail()
            self.stop()
            raise SandboxError(f"the fork server did not start: {log}")

    @staticmethod
    def staging_prefix() -> str:
        from sandbox.backends.bwrap import STAGING_PREFIX  # bwrap imports this module

        return f"{STAGING_PREFIX}{os.getpid()}-{SERVER_PREFIX}"

    def alive(self) -> bool:
        return os.getpid() == self._owner and self.process.poll() is None

    def log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return (self.staging / "server.log").read_text(errors="replace")[-2000:]
        return ""

    def open(
        self,
        options: Sequence[str],
        rlimits: Mapping[int, int],
        cgroup: BoxCgroup,
        on_close: Callable[[], None] | None,
    ) -> ForkedBox:
        """A box made by the server from bubblewrap `options`, in `cgroup`."""
        stdin, stdout, stderr = os.pipe(), os.pipe(), os.pipe()
        status_ours, status_theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        procs = []
        try:
            procs = [os.open(path, os.O_WRONLY | os.O_CLOEXEC) for path in cgroup.procs_files()]
            request = {"options": list(options), "rlimits": sorted(rlimits.items())}
            fds = [status_theirs.fileno(), stdin[0], stdout[1], stderr[1], *procs]
            with self._lock:
                socket.send_fds(self.control, [json.dumps(request).encode()], fds)
        except OSError as error:
            for fd in (*stdin, *stdout, *stderr):
                os.close(fd)
            status_ours.close()
            raise SandboxError(f"the fork server did not take the box: {error}") from error
        finally:
            status_theirs.close()
            for fd in procs:
                os.close(fd)
        for fd in (stdin[0], stdout[1], stderr[1]):
            os.close(fd)
        return ForkedBox(
            stdin=stdin[1],
            stdout=stdout[0],
            stderr=stderr[0],
            status=status_ours,
            cgroup=cgroup,
            on_close=on_close,
        )

    def forget(self) -> None:
        """In a forked child of the referee: close its copy of the socket, nothing else."""
        control = getattr(self, "control", None)
        if control is not None:
            control.close()

    def stop(self) -> None:
        """Hang up: the server exits, and the monitors of any box still open with it."""
        if os.getpid() != self._owner:
            return
        control = getattr(self, "control", None)
        if control is not None:
            control.close()
        process = getattr(self, "process", None)
        if process is not None:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(OSError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        shutil.rmtree(self.staging, ignore_errors=True)


class ForkedBox:
    """A box the fork server made: the bot's pipes, its cgroup, and the status socket on
    which the server says how the box's program ended."""

    def __init__(
        self,
        *,
        stdin: int,
        stdout: int,
        stderr: int,
        status: socket.socket,
        cgroup: BoxCgroup,
        on_close: Callable[[], None] | None,
    ) -> None:
        self.stdin: IO[bytes] = os.fdopen(stdin, "wb")
        self.stdout_fd = stdout
        self.stderr_fd = stderr
        self.cgroup = cgroup
        self._status = status
        self._status.setblocking(False)
        self._code: int | None = None
        self._server_lost = False
        self._on_close = on_close
        self._closed = False

    def freeze(self) -> None:
        self.cgroup.freeze()

    def thaw(self) -> None:
        self.cgroup.thaw()

    def exit_code(self) -> int | None:
        if self._code is None and not self._closed:
            try:
                message = self._status.recv(STATUS_BYTES)
            except BlockingIOError:
                return None
            except OSError:
                message = b""
            # No message but the end: the server died, and the box with it.
            word, _, number = message.decode("ascii", "replace").partition(" ")
            self._server_lost = not (word == "exit" and number.isdigit())
            self._code = 137 if self._server_lost else int(number)
        return self._code

    def sandbox_failure(self) -> str | None:
        """Why the box ended for a reason of the sandbox's, not the bot's: its server
        ended (crashed, killed, or stopped) before saying how the box's program did, which
        then ended with it. None while the server is there."""
        if self._server_lost:
            return "the fork server that made this box ended while the box ran"
        return None

    def oom_killed(self) -> bool:
        return self.cgroup.oom_killed()

    def memory_peak(self) -> int | None:
        return self.cgroup.memory_peak()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.cgroup.remove()
        with contextlib.suppress(OSError):
            self.stdin.close()
        for fd in (self.stdout_fd, self.stderr_fd):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._status.close()
        if self._on_close:
            self._on_close()
