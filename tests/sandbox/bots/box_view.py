"""Writes to its log everything it can learn of its box without breaking out: its
credentials, capabilities, filter, user namespace maps, mounts, folders, namespaces,
limits, cgroup, open descriptors, environment, interpreter flags, and whether it may
make a user namespace.
Two ways of making a box are the same to a bot when this log is."""

from __future__ import annotations

import ctypes
import os
import resource
import sys

STATUS_KEYS = (
    "Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb",
    "NoNewPrivs", "Seccomp", "Seccomp_filters", "NSpid", "PPid",
)  # fmt: skip
FILES = (
    "/proc/self/cgroup",
    "/proc/self/uid_map",
    "/proc/self/gid_map",
    "/proc/self/setgroups",
    "/proc/sys/user/max_user_namespaces",
    "/proc/sys/kernel/hostname",
    "/proc/loadavg",
    "/proc/meminfo",
)
FOLDERS = ("/", "/dev", "/proc", "/proc/sys", "/opt/agon/lib", "/tmp", "/bot", "/usr")  # noqa: S108
CLONE_NEWUSER, SIGCHLD, CLONE = 0x10000000, 17, {"x86_64": 56, "aarch64": 220}


def open_fds() -> list[str]:
    """Each descriptor this process holds and what it is open on (a pipe's or socket's
    number aside): nothing of the server, the referee or another box may be here."""
    found = []
    with os.scandir("/proc/self/fd") as listing:
        own = None
        for entry in listing:
            try:
                target = os.readlink(entry.path)
            except OSError:
                continue
            if own is None and target.startswith("/proc/") and target.endswith("/fd"):
                own = entry.name  # the listing's own
                continue
            kind = target.partition(":")[0] if ":[" in target else target
            found.append(f"{entry.name}={kind}")
    return sorted(found)


def view() -> list[str]:
    lines = []
    with open("/proc/self/status") as status:
        lines += [line for line in status if line.split(":")[0] in STATUS_KEYS]
    for path in FILES:
        try:
            with open(path) as file:
                lines.append(f"{path}: {file.read().strip()}")
        except OSError as error:
            lines.append(f"{path}: {error.strerror}")
    with open("/proc/self/mountinfo") as mounts:
        for line in mounts:
            fields = line.split()
            end = fields.index("-")
            lines.append(f"mount {' '.join(fields[4:end])} {fields[end + 1]} {fields[end + 3]}")
    for folder in FOLDERS:
        lines.append(f"{folder}: {' '.join(sorted(os.listdir(folder)))}")
    namespaces = sorted(os.listdir("/proc/self/ns"))
    lines.append("namespaces: " + " ".join(namespaces))
    lines.append(f"open fds: {open_fds()}")
    for limit in sorted(name for name in dir(resource) if name.startswith("RLIMIT_")):
        lines.append(f"{limit}: {resource.getrlimit(getattr(resource, limit))}")
    lines.append(f"umask: {os.umask(0o22):o}")
    lines.append(f"environment: {sorted(os.environ.items())}")
    lines.append(f"flags: {sys.flags}")
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        lines.append(
            f"{stream.name}: {stream.encoding} {stream.errors} {stream.line_buffering} "
            f"{getattr(stream, 'write_through', None)} {stream.isatty()} {stream.fileno()}"
        )
    lines.append(f"path: {sys.path}")
    lines.append(f"main: {os.getcwd()} {sys.argv} {__file__} {__name__}")
    lines.append(f"session: {os.getsid(0)} {os.getpgid(0)} {os.getpid()} {os.getuid()}")
    lines.append(f"hostname: {os.uname().nodename}")
    libc = ctypes.CDLL(None, use_errno=True)
    number = CLONE.get(os.uname().machine)
    if number is not None:
        child = libc.syscall(number, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0)
        if child == 0:
            os._exit(0)
        lines.append(
            f"a user namespace of its own: {child > 0} ({os.strerror(ctypes.get_errno())})"
        )
        if child > 0:
            os.waitpid(child, 0)
    return lines


if __name__ == "__main__":
    sys.stderr.write("".join(line if line.endswith("\n") else line + "\n" for line in view()))
