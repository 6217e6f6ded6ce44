"""`bwrap`: bubblewrap namespaces plus a cgroup per box.

The box sees the host's /usr read-only (the system's Python and its standard library),
the bot's own folder read-only at /bot, Agon's bot library at /opt/agon/lib, a small
tmpfs at /tmp, and nothing else: no /etc, /home, /root, /var, no network, no host
environment. Namespaces: user (uid 65534), PID, IPC, UTS, mount, network, cgroup.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from sandbox.backends.base import BOX_ENV, BOX_UID, BoxSpec, ProcessBox, SandboxError, become
from sandbox.cgroups import BoxCgroup, CgroupUnavailable, check_available
from sandbox.libraries import library_binds, library_dirs

BOX_PYTHON = "/usr/bin/python3"
BOX_SHELL = "/bin/bash"


def _system_binds() -> list[str]:
    args = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        path = Path(top)
        if path.is_symlink():
            args += ["--symlink", str(path.readlink()), top]
        elif path.is_dir():
            args += ["--ro-bind", top, top]
    return args


def bwrap_argv(spec: BoxSpec, executable: str, stdout_fd: int) -> list[str]:
    """bubblewrap's command line. The bot's stdout comes in as `stdout_fd` and a shell
    moves it to fd 1 as it becomes the bot: bubblewrap's monitor process (outside the
    box, alive until the bot ends) closes every inherited fd but 0, 1 and 2, so that one
    is the bot's alone, and a bot that closes its stdout is seen to at once. bash, as
    dash takes no fd above 9."""
    argv = [
        executable,
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",  # a user namespace of its own would give the bot capabilities
        "--die-with-parent",
        "--as-pid-1",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--uid",
        str(BOX_UID),
        "--gid",
        str(BOX_UID),
        "--hostname",
        "box",
        *_system_binds(),
        *library_binds(),
        "--ro-bind",
        str(spec.package_dir),
        "/bot",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        str(spec.limits.scratch_bytes),
        "--tmpfs",
        "/tmp",  # noqa: S108 - a private tmpfs inside the box
        "--remount-ro",
        "/",
        "--clearenv",
    ]
    for key, value in sorted(BOX_ENV.items()):
        argv += ["--setenv", key, value]
    run_bot = f"exec {BOX_PYTHON} main.py 1>&{stdout_fd} {stdout_fd}>&-"
    return [*argv, "--chdir", "/bot", "--", BOX_SHELL, "-c", run_bot]


class BwrapBackend:
    name = "bwrap"

    def __init__(self) -> None:
        self.executable = shutil.which("bwrap")

    def check(self) -> None:
        if self.executable is None:
            raise SandboxError("bubblewrap is not installed (Debian package: bubblewrap)")
        if not Path(BOX_PYTHON).exists():
            raise SandboxError(f"{BOX_PYTHON} is missing (Debian package: python3)")
        if not Path(BOX_SHELL).exists():
            raise SandboxError(f"{BOX_SHELL} is missing (Debian package: bash)")
        try:
            check_available()
        except CgroupUnavailable as error:
            raise SandboxError(f"bwrap boxes need cgroups for their limits: {error}") from error
        if os.geteuid() == 0:
            problem = _unprivileged_start_problem(self.executable)
            if problem:
                raise SandboxError(problem)

    def open(self, spec: BoxSpec) -> ProcessBox:
        self.check()
        assert self.executable is not None  # noqa: S101 - check() makes sure
        user, staging = None, None
        if os.geteuid() == 0:
            # Started by root, bubblewrap maps the box's user to root itself, which owns
            # the host's /proc/sys (core_pattern names a program the kernel runs as root)
            # and every root-only file the box can see. So it starts as BOX_UID; as that
            # user it must reach the bot's folder, so the bot is copied where it can.
            user, staging = BOX_UID, _stage(spec.package_dir)
            spec = dataclasses.replace(spec, package_dir=staging / "bot")
        on_close = None
        if staging:
            on_close = functools.partial(shutil.rmtree, staging, ignore_errors=True)
        try:
            cgroup = BoxCgroup(spec.limits.memory_bytes, spec.limits.pids)
        except BaseException:
            if on_close:
                on_close()
            raise
        stdout_pipe = os.pipe()
        return ProcessBox(
            bwrap_argv(spec, self.executable, stdout_pipe[1]),
            cwd=spec.package_dir,
            env={},
            cgroup=cgroup,
            user=user,
            on_close=on_close,
            stdout_pipe=stdout_pipe,
        )


STAGING_PREFIX = "agon-bwrap-"


def _stage(package_dir: Path) -> Path:
    """A copy of the bot in a new folder of the system's temporary folder, whose path
    uid BOX_UID can walk (the referee's own folders may well be private).

    The folder's name holds the referee's pid: the copies of a referee that died
    without closing its boxes are removed here, by the next one.
    """
    _remove_copies_of_dead_referees()
    staging = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-"))
    try:
        staging.chmod(0o755)
        shutil.copytree(package_dir, staging / "bot")
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return staging


def _remove_copies_of_dead_referees() -> None:
    for folder in Path(tempfile.gettempdir()).glob(f"{STAGING_PREFIX}*-*"):
        owner = folder.name.removeprefix(STAGING_PREFIX).partition("-")[0]
        if owner.isdigit() and not Path(f"/proc/{owner}").exists():
            shutil.rmtree(folder, ignore_errors=True)


@functools.cache
def _unprivileged_start_problem(executable: str) -> str | None:
    """Why bubblewrap cannot start a box as uid BOX_UID here, or None if it can: it
    needs unprivileged user namespaces, and the libraries and the temporary folder must
    be reachable by that user."""
    binds = []
    for folder in [*library_dirs().values(), Path(tempfile.gettempdir())]:
        binds += ["--ro-bind", str(folder), str(folder)]
    argv = [executable, "--unshare-all", "--unshare-user", "--disable-userns"]
    argv += [*_system_binds(), *binds]
    try:
        probe = subprocess.run(  # noqa: S603 - a fixed argv, never a shell line
            [*argv, "--", BOX_PYTHON, "-S", "-c", ""],
            env={},
            capture_output=True,
            text=True,
            timeout=30,
            preexec_fn=functools.partial(become, BOX_UID),
        )
    except (OSError, subprocess.SubprocessError) as error:
        return f"bubblewrap cannot start as uid {BOX_UID}: {error}"
    if probe.returncode != 0:
        return (
            f"bubblewrap cannot start a box as uid {BOX_UID} (it needs version 0.8 or later, "
            f"unprivileged user namespaces, and {', '.join(binds[1::3])} readable by that user): "
            f"{probe.stderr.strip()}"
        )
    return None
