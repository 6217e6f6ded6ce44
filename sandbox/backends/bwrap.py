"""`bwrap`: bubblewrap namespaces plus a cgroup per box.

The box sees the host's /usr read-only (the system's Python with its standard library
and NumPy; /etc/alternatives too, the links through which NumPy finds BLAS),
the bot's own folder read-only at /bot, Agon's bot library at /opt/agon/lib, a tmpfs of
`scratch_bytes` at /tmp (also its /dev/shm), a read-only /dev of five devices, its own
/proc with the host-wide files stood in for or hidden (`sandbox.host_view`), and
nothing else: no other /etc, no /home, /root, /var, /sys, no network, no host environment.
Namespaces: user (uid 65534), PID, IPC, UTS, mount, network, cgroup.
"""

from __future__ import annotations

import atexit
import dataclasses
import functools
import os
import resource
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from sandbox.backends.base import BOX_ENV, BOX_UID, BoxSpec, ProcessBox, SandboxError, become
from sandbox.box_start import start_argv
from sandbox.cgroups import BoxCgroup, CgroupUnavailable, check_available
from sandbox.fork_server import ForkedBox, ForkServer
from sandbox.host_view import STAND_IN_NAMES, hidden_paths, write_stand_ins
from sandbox.libraries import BOX_LIBRARY_PATH, compiled_copy, library_binds
from sandbox.seccomp import box_filter

BOX_PYTHON = "/usr/bin/python3"
DEVICES = ("null", "zero", "full", "random", "urandom")
ALTERNATIVES = "/etc/alternatives"
"""Debian's choices among equivalent libraries (symbolic links only): NumPy finds its
BLAS and LAPACK through them."""
FORK_SERVER_ENV = "AGON_SANDBOX_FORK_SERVER"
"""1 to make bwrap boxes by forking a pre-imported interpreter (`sandbox.fork_server`)
instead of starting bubblewrap and an interpreter per box; 0 (the default) not to."""
BOX_RLIMITS = {resource.RLIMIT_MSGQUEUE: 0, resource.RLIMIT_CORE: 0}
"""No POSIX message queue (their bytes are counted per user across every box of the
host, outside the scratch limit) and no core file."""


def _system_binds() -> list[str]:
    args = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        path = Path(top)
        if path.is_symlink():
            args += ["--symlink", str(path.readlink()), top]
        elif path.is_dir():
            args += ["--ro-bind", top, top]
    if Path(ALTERNATIVES).is_dir():
        args += ["--ro-bind", ALTERNATIVES, ALTERNATIVES]
    return args


def _host_view_binds(view: Path) -> list[str]:
    """/proc's host-wide files replaced by the box's fixed stand-ins, the rest of what
    is host-wide by an empty file or folder (`sandbox.host_view`)."""
    args = []
    for name in STAND_IN_NAMES:
        args += ["--ro-bind", str(view / "proc" / name), f"/proc/{name}"]
    for path, is_folder in hidden_paths():
        args += ["--ro-bind", str(view / ("empty.d" if is_folder else "empty")), path]
    return args


def _dev_args() -> list[str]:
    """A read-only /dev of the devices Python uses, whose shm is /tmp: every place the
    box can write to is then the one tmpfs of `scratch_bytes` (bubblewrap's own --dev
    is a writable tmpfs of half the host's memory)."""
    args = ["--tmpfs", "/dev"]
    for name in DEVICES:
        args += ["--dev-bind", f"/dev/{name}", f"/dev/{name}"]
    args += ["--symlink", "/proc/self/fd", "/dev/fd"]
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        args += ["--symlink", f"/proc/self/fd/{fd}", f"/dev/{name}"]
    return [*args, "--symlink", "/tmp", "/dev/shm", "--remount-ro", "/dev"]  # noqa: S108


def bwrap_argv(
    spec: BoxSpec,
    executable: str,
    view: Path,
    stdout_fd: int,
    seccomp_fd: int | None = None,
    libraries: dict[str, Path] | None = None,
) -> list[str]:
    """The command line of a box; `view` is the folder `_make_box_folder` made for it,
    `seccomp_fd` an open file of `box_filter()` (passed to bubblewrap, which installs it
    before it starts the bot's interpreter), `libraries` the folders of the bot libraries
    to show (`compiled_libraries()`; the host's own by default).

    The bot's stdout comes in as `stdout_fd` and the bot's interpreter moves it to fd 1
    before the bot's first instruction (`sandbox.box_start`): bubblewrap's monitor
    process (outside the box, alive until the bot ends) closes every inherited fd but 0,
    1 and 2, so that one is the bot's alone, and a bot that closes its stdout is seen to
    at once."""
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
        *library_binds(libraries),
        "--ro-bind",
        str(spec.package_dir),
        "/bot",
        "--proc",
        "/proc",
        *_host_view_binds(view),
        *_dev_args(),
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
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    return [*argv, "--chdir", "/bot", "--", *start_argv(BOX_PYTHON, stdout_fd=stdout_fd)]


def fork_server_wanted(environ: dict[str, str] | None = None) -> bool:
    """Whether FORK_SERVER_ENV asks for the fork server; ValueError on a value that is
    neither on nor off."""
    value = (os.environ if environ is None else environ).get(FORK_SERVER_ENV, "").strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"{FORK_SERVER_ENV} must be 1 or 0, not {value!r}")


class BwrapBackend:
    name = "bwrap"

    def __init__(self, *, fork_server: bool | None = None) -> None:
        self.executable = shutil.which("bwrap")
        self.fork_server = fork_server_wanted() if fork_server is None else fork_server

    def check(self) -> None:
        if self.executable is None:
            raise SandboxError("bubblewrap is not installed (Debian package: bubblewrap)")
        if not Path(BOX_PYTHON).exists():
            raise SandboxError(f"{BOX_PYTHON} is missing (Debian package: python3)")
        try:
            check_available()
        except CgroupUnavailable as error:
            raise SandboxError(f"bwrap boxes need cgroups for their limits: {error}") from error
        if os.geteuid() == 0:
            problem = _unprivileged_start_problem(self.executable)
            if problem:
                raise SandboxError(problem)

    def open(self, spec: BoxSpec) -> ProcessBox | ForkedBox:
        self.check()
        assert self.executable is not None  # noqa: S101 - check() makes sure
        if self.fork_server:
            return self._open_forked(spec, self.executable)
        # Started by root, bubblewrap maps the box's user to root itself, which owns
        # the host's /proc/sys (core_pattern names a program the kernel runs as root)
        # and every root-only file the box can see. So it starts as BOX_UID; as that
        # user it must reach the bot's folder, so the bot is copied where it can.
        user = BOX_UID if os.geteuid() == 0 else None
        folder = _make_box_folder(spec, copy_bot=user is not None)
        on_close = functools.partial(shutil.rmtree, folder, ignore_errors=True)
        if user is not None:
            spec = dataclasses.replace(spec, package_dir=folder / "bot")
        seccomp_fd = None
        try:
            seccomp_fd = _open_seccomp_filter(folder)
            cgroup = BoxCgroup(spec.limits.memory_bytes, spec.limits.pids)
        except BaseException:
            if seccomp_fd is not None:
                os.close(seccomp_fd)
            on_close()
            raise
        stdout_pipe = os.pipe()
        try:
            return ProcessBox(
                bwrap_argv(
                    spec,
                    self.executable,
                    folder,
                    stdout_pipe[1],
                    seccomp_fd,
                    compiled_libraries(),
                ),
                cwd=spec.package_dir,
                env={},
                cgroup=cgroup,
                user=user,
                rlimits=BOX_RLIMITS,
                pass_fds=() if seccomp_fd is None else (seccomp_fd,),
                on_close=on_close,
                stdout_pipe=stdout_pipe,
            )
        finally:
            if seccomp_fd is not None:
                os.close(seccomp_fd)

    def _open_forked(self, spec: BoxSpec, executable: str) -> ForkedBox:
        """The same box, made by this process's fork server: its bubblewrap options
        are `bwrap_argv`'s, with the libraries where the server shows them."""
        server = fork_server(executable)
        folder = _make_box_folder(spec, copy_bot=True, parent=server.staging)
        on_close = functools.partial(shutil.rmtree, folder, ignore_errors=True)
        spec = dataclasses.replace(spec, package_dir=folder / "bot")
        libraries = {name: Path(BOX_LIBRARY_PATH, name) for name in compiled_libraries()}
        argv = bwrap_argv(spec, executable, folder, 1, None, libraries)
        options = argv[1 : argv.index("--")]
        try:
            cgroup = BoxCgroup(spec.limits.memory_bytes, spec.limits.pids)
        except BaseException:
            on_close()
            raise
        try:
            return server.open(options, BOX_RLIMITS, cgroup, on_close)
        except BaseException:
            cgroup.remove()
            on_close()
            raise


_servers: dict[int, ForkServer] = {}
_starting_servers = threading.Lock()


def fork_server(executable: str) -> ForkServer:
    """This process's fork server, started at its first box (again should it have
    died), stopped at its exit."""
    pid = os.getpid()
    with _starting_servers:
        server = _servers.get(pid)
        if server is None or not server.alive():
            if server is not None:
                server.stop()
            box_options = [*_system_binds(), *library_binds(compiled_libraries()), *_dev_args()]
            server = ForkServer(executable, BOX_PYTHON, box_options)
            if not _servers:
                atexit.register(_stop_servers)
            _servers[pid] = server
        return server


def _stop_servers() -> None:
    server = _servers.pop(os.getpid(), None)
    if server is not None:
        server.stop()


def _forget_parents_servers() -> None:
    """In a forked child (a worker's pool process): hang up the parent's servers' sockets
    here, so that each server sees its own referee's end, and only its, close."""
    for server in _servers.values():
        server.forget()
    _servers.clear()


os.register_at_fork(after_in_child=_forget_parents_servers)


STAGING_PREFIX = "agon-bwrap-"
LIBRARIES_PREFIX = "agon-libraries-"
"""Of the folder of a referee's compiled libraries, which lives as long as the referee
(not one of a box's copies)."""
_compiled: dict[int, dict[str, Path]] = {}
_compiling = threading.Lock()


def compiled_libraries() -> dict[str, Path]:
    """This process's copy of the bot libraries with their bytecode
    (`sandbox.libraries.compiled_copy`), made at its first box and removed at its exit
    (or, should it die, by the next referee's `_remove_copies_of_dead_referees`). A
    forked child makes its own: its parent's goes with the parent."""
    pid = os.getpid()
    with _compiling:
        if pid not in _compiled:
            folder = Path(tempfile.mkdtemp(prefix=f"{LIBRARIES_PREFIX}{pid}-"))
            try:
                _compiled[pid] = compiled_copy(folder, BOX_PYTHON)
            except (OSError, subprocess.SubprocessError) as error:
                shutil.rmtree(folder, ignore_errors=True)
                raise SandboxError(
                    f"cannot compile the bot libraries with {BOX_PYTHON}: {error}"
                ) from error
            atexit.register(_remove_if_made_by, pid, folder)
        return _compiled[pid]


def _remove_if_made_by(pid: int, folder: Path) -> None:
    """At exit: a forked child inherits its parent's exit handlers, not its folders."""
    if os.getpid() == pid:
        shutil.rmtree(folder, ignore_errors=True)


def _open_seccomp_filter(folder: Path) -> int | None:
    """A descriptor on `box_filter()` for bubblewrap to read, or None where there is none."""
    program = box_filter()
    if program is None:
        return None
    path = folder / "seccomp.bpf"
    path.write_bytes(program)
    return os.open(path, os.O_RDONLY | os.O_CLOEXEC)


def _make_box_folder(spec: BoxSpec, *, copy_bot: bool, parent: Path | None = None) -> Path:
    """A new folder of the system's temporary folder, whose path uid BOX_UID can walk
    (the referee's own folders may well be private), with what the box is shown of it:
    the stand-ins of /proc's host-wide files (proc/), an empty file and an empty folder
    to hide the rest, and with `copy_bot` a copy of the bot (bot/). In `parent` if
    given (a fork server's staging folder, which its server sees).

    The folder's name holds the referee's pid: the folders of a referee that died
    without closing its boxes are removed here, by the next one.
    """
    _remove_copies_of_dead_referees()
    folder = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", dir=parent))
    try:
        folder.chmod(0o755)
        write_stand_ins(folder / "proc", spec.limits)
        (folder / "empty").touch()
        (folder / "empty.d").mkdir()
        for made in (folder / "empty", folder / "empty.d"):
            made.chmod(0o755)  # whatever the umask
        if copy_bot:
            shutil.copytree(spec.package_dir, folder / "bot")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder


def _remove_copies_of_dead_referees() -> None:
    for prefix in (STAGING_PREFIX, LIBRARIES_PREFIX):
        for folder in Path(tempfile.gettempdir()).glob(f"{prefix}*-*"):
            owner = folder.name.removeprefix(prefix).partition("-")[0]
            if owner.isdigit() and not Path(f"/proc/{owner}").exists():
                shutil.rmtree(folder, ignore_errors=True)


@functools.cache
def _unprivileged_start_problem(executable: str) -> str | None:
    """Why bubblewrap cannot start a box as uid BOX_UID here, or None if it can: it
    needs unprivileged user namespaces, and the temporary folder (where the bot, its
    /proc stand-ins and the compiled libraries are copied) must be reachable by that
    user."""
    binds = []
    for folder in [Path(tempfile.gettempdir())]:
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
