"""The interface every sandbox backend implements, and the process-based box they share."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol

from sandbox.cgroups import BoxCgroup
from sandbox.errors import SandboxError as SandboxError  # re-exported: its home for most
from sandbox.limits import Limits

BOX_UID = 65534
"""`nobody`: boxes never run as a real user of the host."""

BOX_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/tmp",  # noqa: S108 - the box's own private tmpfs
    "LANG": "C.UTF-8",
    "PYTHONPATH": "/opt/agon/lib",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONUNBUFFERED": "1",
}
"""The whole environment of a bot: nothing of the host's reaches it."""


@dataclass(frozen=True)
class BoxSpec:
    package_dir: Path
    """The unpacked bot, shown read-only at /bot in the box; main.py is run."""
    limits: Limits
    label: str = "bot"


class Box(Protocol):
    """A bot program running in a box, with pipes for the protocol and its log."""

    stdin: IO[bytes]
    stdout_fd: int
    stderr_fd: int

    def freeze(self) -> None: ...

    def thaw(self) -> None: ...

    def exit_code(self) -> int | None: ...

    def oom_killed(self) -> bool: ...

    def memory_peak(self) -> int | None: ...

    def close(self) -> None:
        """Kill everything the box started and free what it held; safe to call twice."""


class Backend(Protocol):
    name: str

    def check(self) -> None:
        """SandboxError with the reason unless this backend can run boxes here."""

    def open(self, spec: BoxSpec) -> Box: ...


class ProcessBox:
    """A box whose program is a child process of the referee (the none and bwrap backends).

    With a cgroup, limits, freezing and the final kill cover the whole process tree;
    without one (trusted code only) the process group stands in for the tree. With a
    `user`, the program starts as that user (and group), with no other groups; `rlimits`
    (resource: value, soft and hard) are set before it starts; `pass_fds` stay open in it.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        env: dict[str, str],
        cgroup: BoxCgroup | None,
        user: int | None = None,
        rlimits: Mapping[int, int] | None = None,
        pass_fds: Sequence[int] = (),
        on_close: Callable[[], None] | None = None,
        stdout_pipe: tuple[int, int] | None = None,
    ) -> None:
        """`stdout_pipe` (read end, write end): the program's stdout is that pipe, whose
        write end the child inherits under its own number (the argv moves it to fd 1),
        and the launcher's own fd 1 is /dev/null. For a launcher that outlives its
        program's stdout (bwrap's monitor process keeps its fds 0-2 open), so that a bot
        closing its stdout is seen at once."""
        self.cgroup = cgroup
        self._on_close = on_close
        self._closed = False
        try:
            self.process = subprocess.Popen(  # noqa: S603 - a fixed argv, never a shell line
                list(argv),
                cwd=cwd,
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL if stdout_pipe else subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                close_fds=True,
                pass_fds=(*pass_fds, *((stdout_pipe[1],) if stdout_pipe else ())),
                preexec_fn=_enter_box(cgroup, user, rlimits or {}),
            )
        except OSError as error:
            if stdout_pipe:
                for fd in stdout_pipe:
                    os.close(fd)
            self._cleanup()
            raise SandboxError(f"cannot start {argv[0]}: {error}") from error
        assert self.process.stdin and self.process.stderr  # noqa: S101
        self.stdin = self.process.stdin
        if stdout_pipe:
            os.close(stdout_pipe[1])  # the program's now: its end is seen when it closes it
            self._stdout_fd: int | None = stdout_pipe[0]
            self.stdout_fd = stdout_pipe[0]
        else:
            assert self.process.stdout  # noqa: S101
            self._stdout_fd = None
            self.stdout_fd = self.process.stdout.fileno()
        self.stderr_fd = self.process.stderr.fileno()

    def freeze(self) -> None:
        # The freezer, not SIGSTOP process by process: a process of the box that is not
        # stopped yet could send SIGCONT to one that is, and run between turns.
        if self.cgroup:
            self.cgroup.freeze()
        else:
            self._signal_group(signal.SIGSTOP)

    def thaw(self) -> None:
        if self.cgroup:
            self.cgroup.thaw()
        else:
            self._signal_group(signal.SIGCONT)

    def _signal_group(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signum)

    def exit_code(self) -> int | None:
        return self.process.poll()

    def oom_killed(self) -> bool:
        return self.cgroup.oom_killed() if self.cgroup else False

    def memory_peak(self) -> int | None:
        return self.cgroup.memory_peak() if self.cgroup else None

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._signal_group(signal.SIGKILL)
        if self.cgroup:
            self.cgroup.kill_all()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            with contextlib.suppress(OSError):
                if stream:
                    stream.close()
        if self._stdout_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._stdout_fd)
        self._cleanup()

    def _cleanup(self) -> None:
        if self.cgroup:
            self.cgroup.remove()
        if self._on_close:
            self._on_close()


def _enter_box(
    cgroup: BoxCgroup | None, user: int | None, rlimits: Mapping[int, int]
) -> Callable[[], None] | None:
    """What the child runs between fork and exec: join the cgroup (which needs the
    referee's privileges), set the limits, then become `user`."""
    if cgroup is None and user is None and not rlimits:
        return None

    def enter() -> None:
        if cgroup is not None:
            cgroup.attach_self()
        for limit, value in rlimits.items():
            resource.setrlimit(limit, (value, value))
        if user is not None:
            become(user)

    return enter


def become(user: int) -> None:
    """Drop to `user` (as its own group, with no others): for root's child processes."""
    os.setgroups([])
    os.setresgid(user, user, user)
    os.setresuid(user, user, user)
