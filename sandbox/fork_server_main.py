"""The fork server's own program: a pre-imported interpreter that makes each box by
forking itself (`sandbox.fork_server` starts it and speaks to it).

It runs as `python3 -P -S -c <this file> <control fd> <filter> <modules>` in a
bubblewrap box of its own (`sandbox.fork_server.server_argv`): the system's /usr, the
bot libraries at /opt/agon/lib, the referee's staging folder read-only, a /proc of its
own PID namespace, no network, and a user namespace of its own where it holds
capabilities (bubblewrap's `--cap-add ALL`) and none can make another
(`--disable-userns`). It imports what every bot's start imports (`json`, `typing`,
`agon_bot`, the compact forms of legal actions), then waits for requests on the
control socket: one message per box, its text the box's bubblewrap options (the very
list `sandbox.backends.bwrap.bwrap_argv` gives, before `--`) and its descriptors the
box's status socket, the bot's stdin, stdout and stderr pipes and its cgroup's
`cgroup.procs` files, opened by the referee.

Per request it forks a monitor, which joins the box's cgroup (everything after this
is the box's CPU and memory), sets the box's rlimits, unshares the mount, PID,
network, IPC, UTS and cgroup namespaces and forks the box's first process (PID 1 of its
own PID namespace). That one does what bubblewrap would do with the same options,
in the same order, under a new root; pivots into it and detaches the rest (the staging
folder, other bots' folders among them); drops every capability, bounding and ambient
sets included; sets no_new_privs and the box's seccomp filter; and returns to the
bottom of this program, which runs the bot's main.py as `sandbox.box_start` does. The
monitor waits for it and exits with its status, which the server sends back on the
box's status socket (`exit N`, with 128 + N for a signal, as bubblewrap).

Standard library only: it runs under the box's interpreter, which has nothing else.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import gc
import importlib
import json
import os
import platform
import resource
import select
import signal
import socket
import sys
from typing import Any

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
BOX_NAMESPACES = (
    CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWNET
)
MS_NOSUID, MS_NODEV, MS_NOEXEC = 2, 4, 8
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
MNT_DETACH = 2
MOUNT_ATTR_RDONLY, MOUNT_ATTR_NOSUID, MOUNT_ATTR_NODEV = 1, 2, 4
AT_FDCWD, AT_RECURSIVE = -100, 0x8000
PR_SET_PDEATHSIG, PR_SET_SECCOMP, PR_CAPBSET_DROP = 1, 22, 24
PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 38, 47, 4
SECCOMP_MODE_FILTER = 2
CAPABILITY_VERSION_3 = 0x20080522
SYSCALLS = {"x86_64": {"pivot_root": 155}, "aarch64": {"pivot_root": 41}}
MOUNT_SETATTR = 442  # the same number on every architecture
NEW_ROOT = "/newroot"
PROC_COVERED = ("sys", "sysrq-trigger", "irq", "bus")
"""What bubblewrap binds read-only over itself in every /proc it mounts, where it
could be written."""
FLAGS_APPLIED_TO_EVERY_BOX = frozenset(
    {"--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
     "--as-pid-1", "--new-session", "--clearenv"}
)  # fmt: skip
"""Options whose effect every forked box has anyway (namespaces, no user namespace, no
parent, PID 1, its own session, only BOX_ENV)."""

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


class BoxError(Exception):
    """The box could not be made: said on the bot's stderr, the box then exits 1."""


def check(result: int, what: str) -> None:
    if result < 0:
        raise BoxError(f"{what}: {os.strerror(ctypes.get_errno())}")


class MountAttributes(ctypes.Structure):
    _fields_ = [
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    ]


class CapabilityHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class CapabilityData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


class FilterProgram(ctypes.Structure):
    _fields_ = [("length", ctypes.c_ushort), ("instructions", ctypes.c_char_p)]


def mount(source: str | None, target: str, kind: str | None, flags: int, data: str | None) -> None:
    def encode(text: str | None) -> bytes | None:
        return None if text is None else text.encode()

    result = libc.mount(encode(source), encode(target), encode(kind), flags, encode(data))
    check(result, f"mount {source} on {target}")


def set_mount_attributes(target: str, attributes: int, *, recursive: bool) -> None:
    """mount_setattr(2): the flags on `target` (and every mount below with `recursive`),
    keeping those the mount has; what bubblewrap's remounts do, in one call."""
    wanted = MountAttributes(attributes, 0, 0, 0)
    flags = AT_RECURSIVE if recursive else 0
    result = libc.syscall(MOUNT_SETATTR, AT_FDCWD, target.encode(), flags, ctypes.byref(wanted), 32)
    check(result, f"mount_setattr {target}")


def make_mount_point(source: str, target: str) -> None:
    if os.path.isdir(source):
        os.makedirs(target, mode=0o755, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
        if not os.path.lexists(target):
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o444))


def bind(source: str, target: str, *, read_only: bool, devices: bool) -> None:
    """bubblewrap's --ro-bind, --dev-bind and --bind: recursive, no set-uid programs,
    device files only where asked for, read-only where asked for."""
    make_mount_point(source, target)
    mount(source, target, None, MS_BIND | MS_REC, None)
    attributes = MOUNT_ATTR_NOSUID | (0 if devices else MOUNT_ATTR_NODEV)
    set_mount_attributes(
        target, attributes | (MOUNT_ATTR_RDONLY if read_only else 0), recursive=True
    )


def build_root(options: list[str]) -> tuple[str, dict[str, str], str]:
    """Do what bubblewrap does with `options` under NEW_ROOT, in their order; the
    hostname, environment and working folder they ask for. An option this does not know
    is an error: a box is never made with less than its bubblewrap counterpart."""
    mount(None, "/", None, MS_REC | MS_PRIVATE, None)
    mount("tmpfs", NEW_ROOT, "tmpfs", MS_NOSUID | MS_NODEV, None)
    hostname, environment, folder = "", {}, "/"
    size: str | None = None
    words = iter(options)

    def inside(path: str) -> str:
        return NEW_ROOT + path if path != "/" else NEW_ROOT

    for option in words:
        if option in FLAGS_APPLIED_TO_EVERY_BOX:
            continue
        if option == "--cap-drop":
            if next(words) != "ALL":
                raise BoxError("a forked box drops every capability")
        elif option in ("--uid", "--gid"):
            wanted = int(next(words))
            if wanted != (os.getuid() if option == "--uid" else os.getgid()):
                raise BoxError(f"{option} {wanted} is not the fork server's own")
        elif option == "--hostname":
            hostname = next(words)
        elif option in ("--ro-bind", "--dev-bind", "--bind"):
            source, target = next(words), next(words)
            bind(source, inside(target), read_only=option == "--ro-bind",
                 devices=option == "--dev-bind")  # fmt: skip
        elif option == "--symlink":
            target, link = next(words), next(words)
            os.makedirs(os.path.dirname(inside(link)), mode=0o755, exist_ok=True)
            os.symlink(target, inside(link))
        elif option == "--proc":
            target = inside(next(words))
            os.makedirs(target, mode=0o755, exist_ok=True)
            mount("proc", target, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
            for name in PROC_COVERED:
                path = os.path.join(target, name)
                if os.access(path, os.W_OK):  # as bubblewrap: only where it could be written
                    bind(path, path, read_only=True, devices=False)
        elif option == "--size":
            size = next(words)
        elif option == "--tmpfs":
            target = inside(next(words))
            os.makedirs(target, mode=0o755, exist_ok=True)
            data = "mode=0755" + (f",size={size}" if size is not None else "")
            mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, data)
            size = None
        elif option == "--remount-ro":
            attributes = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV
            set_mount_attributes(inside(next(words)), attributes, recursive=False)
        elif option == "--setenv":
            key = next(words)
            environment[key] = next(words)
        elif option == "--chdir":
            folder = next(words)
        else:
            raise BoxError(f"the fork server cannot apply the bubblewrap option {option}")
    return hostname, environment, folder


def pivot_into_new_root() -> None:
    """The new root becomes / and the old one, with everything the server could see,
    is detached (bubblewrap's own pivot_root(".", ".") then umount)."""
    os.chdir(NEW_ROOT)
    number = SYSCALLS[platform.machine()]["pivot_root"]
    check(libc.syscall(number, b".", b"."), "pivot_root")
    check(libc.umount2(b".", MNT_DETACH), "umount the old root")
    os.chdir("/")


def drop_capabilities(last_capability: int) -> None:
    for capability in range(last_capability + 1):
        check(libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0), "drop the bounding set")
    check(libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "clear ambient")
    header = CapabilityHeader(CAPABILITY_VERSION_3, 0)
    none = (CapabilityData * 2)()
    check(libc.capset(ctypes.byref(header), ctypes.byref(none)), "capset")


def install_filter(program: bytes) -> None:
    check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    if program:
        installed = FilterProgram(len(program) // 8, program)
        result = libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(installed), 0, 0)
        check(result, "the box's seccomp filter")


def die_with_parent(parent: int | None) -> None:
    """SIGKILL when the parent dies; exit now if it has already (`parent`: its pid, None
    where it is outside this process's PID namespace, and in the box's cgroup, whose
    end kills both)."""
    check(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "PR_SET_PDEATHSIG")
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def close_all_but(keep: set[int]) -> None:
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd not in keep:
            with contextlib.suppress(OSError):  # the listing's own, closed already
                os.close(fd)


def become_box(
    request: dict[str, Any], fds: list[int], program: bytes, last_capability: int
) -> None:
    """In a fresh fork of the server: the monitor, then (returning) the box's PID 1."""
    die_with_parent(int(request["server"]))
    stdin, stdout, stderr, *cgroup_procs = fds[1:]
    close_all_but({stdin, stdout, stderr, *cgroup_procs})
    try:
        for procs in cgroup_procs:  # first: what follows is the box's CPU and memory
            os.write(procs, b"0")
            os.close(procs)
        for limit, value in request["rlimits"]:
            resource.setrlimit(limit, (value, value))
        check(libc.unshare(BOX_NAMESPACES), "unshare")
        first = os.fork()
    except (BoxError, OSError, ValueError) as error:
        os.write(stderr, f"agon: the fork server could not make the box: {error}\n".encode())
        os._exit(1)
    if first:  # the monitor: it waits, then says how the box's program ended
        for fd in (stdin, stdout, stderr):
            os.close(fd)
        drop_capabilities(last_capability)
        _, status = os.waitpid(first, 0)
        code = os.waitstatus_to_exitcode(status)
        os._exit(code if code >= 0 else 128 - code)
    try:
        die_with_parent(None)
        os.setsid()
        for target, fd in enumerate((stdin, stdout, stderr)):
            os.dup2(fd, target)
            os.close(fd)
        hostname, environment, folder = build_root(request["options"])
        pivot_into_new_root()
        if hostname:
            check(libc.sethostname(hostname.encode(), len(hostname)), "sethostname")
        os.chdir(folder)
        os.environ.clear()
        os.environ.update(environment, PWD=folder)  # bubblewrap sets PWD too
        drop_capabilities(last_capability)
        install_filter(program)
    except (BoxError, OSError) as error:
        os.write(2, f"agon: the fork server could not make the box: {error}\n".encode())
        os._exit(1)


def serve(control_fd: int, program: bytes, modules: list[str]) -> None:
    """Answer requests until the referee hangs up; returns only in a box's process."""
    if libc.syscall(MOUNT_SETATTR, -1, b"", 0, None, 0) < 0 and ctypes.get_errno() == errno.ENOSYS:
        sys.exit("the fork server needs mount_setattr(2): Linux 5.12 or later")
    for name in modules:
        importlib.import_module(name)
    with open("/proc/sys/kernel/cap_last_cap") as file:
        last_capability = int(file.read())
    control = socket.socket(fileno=control_fd)
    woken, wake = os.pipe()
    os.set_blocking(wake, False)
    signal.set_wakeup_fd(wake)
    signal.signal(signal.SIGCHLD, lambda number, frame: None)
    statuses: dict[int, socket.socket] = {}
    gc.freeze()  # what is here now stays shared with every box, never written again
    control.send(b"ready")
    while True:
        ready, _, _ = select.select([control.fileno(), woken], [], [])
        if woken in ready:
            os.read(woken, 4096)
            while statuses:
                try:
                    pid, status = os.waitpid(-1, os.WNOHANG)
                except ChildProcessError:
                    break
                if pid == 0:
                    break
                channel = statuses.pop(pid, None)
                if channel is not None:
                    code = os.waitstatus_to_exitcode(status)
                    with contextlib.suppress(OSError):  # the referee closed the box first
                        channel.send(f"exit {code if code >= 0 else 128 - code}".encode())
                    channel.close()
        if control.fileno() not in ready:
            continue
        message, fds, _, _ = socket.recv_fds(control, 1 << 20, 64)
        if not message:
            os._exit(0)  # the referee is gone; its boxes' monitors die with this process
        request = json.loads(message)
        request["server"] = os.getpid()
        try:
            pid = os.fork()
        except OSError as error:  # out of processes or memory: this box fails, not the server
            with contextlib.suppress(OSError, IndexError):
                os.write(fds[3], f"agon: the fork server could not fork: {error}\n".encode())
                os.write(fds[0], b"exit 1")
            for fd in fds:
                os.close(fd)
            continue
        if pid == 0:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            become_box(request, fds, program, last_capability)
            return
        statuses[pid] = socket.socket(fileno=fds[0])
        for fd in fds[1:]:
            os.close(fd)
