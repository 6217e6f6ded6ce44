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
import ctypes
import dataclasses
import errno
import functools
import logging
import os
import platform
import resource
import select
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path

from sandbox.backends.base import BOX_ENV, BOX_UID, BoxSpec, ProcessBox, SandboxError, become
from sandbox.box_start import start_argv
from sandbox.cgroups import BoxCgroup, CgroupUnavailable, check_available
from sandbox.fork_server import ForkedBox, ForkServer
from sandbox.fork_server_main import MOUNT_SETATTR
from sandbox.host_view import STAND_IN_NAMES, hidden_paths, write_stand_ins
from sandbox.libraries import BOX_LIBRARY_PATH, compiled_copy, library_binds
from sandbox.limits import Limits
from sandbox.seccomp import box_filter

log = logging.getLogger(__name__)

BOX_PYTHON = "/usr/bin/python3"
DEVICES = ("null", "zero", "full", "random", "urandom")
ALTERNATIVES = "/etc/alternatives"
"""Debian's choices among equivalent libraries (symbolic links only): NumPy finds its
BLAS and LAPACK through them."""
FORK_SERVER_ENV = "AGON_SANDBOX_FORK_SERVER"
"""Whether bwrap boxes are made by forking a pre-imported interpreter
(`sandbox.fork_server`) instead of starting bubblewrap and an interpreter per box: unset
(or `auto`) where this machine supports it (`fork_server_problem`), else bubblewrap, said
in one log line; 1 demands it (a box fails with the reason where it cannot work); 0 never."""
FORK_SERVER_AUTO = ("", "auto")
PROBE_SECONDS = 30.0
"""How long the probe's box may take to start and end, at the first box of a process."""
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


def fork_server_wanted(environ: Mapping[str, str] | None = None) -> bool | None:
    """Whether FORK_SERVER_ENV demands the fork server (True), refuses it (False) or
    leaves it to this machine (None, unset or `auto`); ValueError on any other value."""
    value = (os.environ if environ is None else environ).get(FORK_SERVER_ENV, "").strip().lower()
    if value in FORK_SERVER_AUTO:
        return None
    if value in ("0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"{FORK_SERVER_ENV} must be 1 or 0, not {value!r}")


class BwrapBackend:
    name = "bwrap"

    def __init__(self, *, fork_server: bool | None = None) -> None:
        """`fork_server`: True demands the fork server, False refuses it, None reads
        FORK_SERVER_ENV (which by default uses it where it works)."""
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
        if self.fork_server:
            self.forks_boxes()  # demanded: SandboxError here, with the reason, if it cannot

    def open(self, spec: BoxSpec) -> ProcessBox | ForkedBox:
        self.check()
        assert self.executable is not None  # noqa: S101 - check() makes sure
        if self.forks_boxes():
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

    def forks_boxes(self) -> bool:
        """Whether this backend's boxes are made by the fork server: as asked, or, left
        to the machine, where `fork_server_problem` finds none. SandboxError where it is
        demanded and cannot work."""
        if self.fork_server is False or self.executable is None:
            return False
        problem = fork_server_problem(self.executable)
        if problem is None:
            return True
        if self.fork_server:
            raise SandboxError(
                f"{FORK_SERVER_ENV}=1, but the fork server cannot work here: {problem}"
            )
        return False

    def box_path(self) -> str:
        """Which way this backend makes its boxes, and why (`agon health` reports it)."""
        if self.fork_server is False:
            return f"bubblewrap ({FORK_SERVER_ENV}=0)"
        if self.executable is None:
            return "none (bubblewrap is not installed)"
        problem = fork_server_problem(self.executable)
        if problem is None:
            return "fork server"
        return f"bubblewrap (the fork server cannot work here: {problem})"

    def _open_forked(self, spec: BoxSpec, executable: str) -> ForkedBox:
        return _forked_box(fork_server(executable), spec, executable)


def _forked_box(server: ForkServer, spec: BoxSpec, executable: str) -> ForkedBox:
    """The box `spec` describes, made by `server`: its bubblewrap options are
    `bwrap_argv`'s, with the libraries where the server shows them."""
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
    """This process's fork server, started at its first box (again, with one log line,
    should it have died: the boxes it was serving died with it, and their matches fail
    with `ForkedBox.sandbox_failure`), stopped at its exit or by `stop_fork_server`."""
    pid = os.getpid()
    with _starting_servers:
        server = _servers.get(pid)
        if server is None or not server.alive():
            if server is not None:
                log.warning(
                    "the fork server (pid %s) ended with status %s; starting a new one: "
                    "its boxes ended with it, and their matches failed as the sandbox's",
                    server.process.pid,
                    server.process.poll(),
                )
                server.stop()
            box_options = [*_system_binds(), *library_binds(compiled_libraries()), *_dev_args()]
            server = ForkServer(executable, BOX_PYTHON, box_options)
            if not _servers:
                atexit.register(stop_fork_server)
            _servers[pid] = server
        return server


def fork_server_running() -> bool:
    """Whether this process has a fork server now."""
    server = _servers.get(os.getpid())
    return server is not None and server.alive()


def stop_fork_server() -> bool:
    """Stop this process's fork server, if it has one (the boxes it still serves end
    with it); whether there was one. The next forked box starts a new server."""
    with _starting_servers:
        server = _servers.pop(os.getpid(), None)
    if server is None:
        return False
    server.stop()
    return True


_probed: dict[str, str | None] = {}


def fork_server_problem(executable: str) -> str | None:
    """Why the fork server cannot make boxes on this machine, or None if it can: probed
    once in a process, at its first box, and kept by the processes forked after (the
    kernel's and bubblewrap's abilities do not change). The probe is the real thing:
    the kernel must have mount_setattr(2) (Linux 5.12), then a server must start
    (bubblewrap, a user namespace with capabilities, the box's interpreter and imports)
    and make a box that runs an empty bot to its end (the box's namespaces, mounts,
    cgroup, filter). Where it cannot, one log line says so, and why."""
    with _probing:
        if executable not in _probed:
            problem = _kernel_problem() or _probe_box_problem(executable)
            if problem is not None:
                log.warning(
                    "the bwrap fork server cannot work here, boxes are started by "
                    "bubblewrap instead (%s=0 says so and skips this probe): %s",
                    FORK_SERVER_ENV,
                    problem,
                )
            _probed[executable] = problem
        return _probed[executable]


_probing = threading.Lock()


def _kernel_problem() -> str | None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    if libc.syscall(MOUNT_SETATTR, -1, b"", 0, None, 0) < 0 and ctypes.get_errno() == errno.ENOSYS:
        return f"Linux {platform.release()} has no mount_setattr(2) (5.12 or later has)"
    return None


def _probe_box_problem(executable: str) -> str | None:
    """A box of an empty bot, made by this process's server (which then serves the
    boxes to come): None if it ran to its end, else what went wrong."""
    try:
        server = fork_server(executable)
    except SandboxError as error:
        return str(error)
    with tempfile.TemporaryDirectory(prefix=f"{STAGING_PREFIX}{os.getpid()}-probe-") as bot:
        Path(bot).chmod(0o755)
        (Path(bot) / "main.py").touch(mode=0o644)
        try:
            box = _forked_box(server, BoxSpec(Path(bot), Limits()), executable)
        except (SandboxError, OSError) as error:
            return f"the probe's box could not be made: {error}"
        try:
            box.stdin.close()
            said = _read_all(box.stderr_fd, time.monotonic() + PROBE_SECONDS)
            deadline = time.monotonic() + PROBE_SECONDS
            while box.exit_code() is None and time.monotonic() < deadline:
                time.sleep(0.005)
            code = box.exit_code()
        finally:
            box.close()
    if code != 0:
        return f"the probe's box of an empty bot ended with {code}: {said[-500:]!r}"
    return None


def _read_all(fd: int, deadline: float) -> str:
    """What `fd` gives until its end or `deadline`."""
    chunks = []
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode(errors="replace")


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
