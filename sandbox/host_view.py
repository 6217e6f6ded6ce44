"""What a box sees of the host's /proc: fixed stand-ins for the host-wide files, and
every other host-wide entry hidden.

A box has its own PID namespace, but most of /proc describes the whole host: CPU time,
memory, interrupts, load, pressure, open files. Read between two of its turns, those
counters told a frozen bot how hard its opponent had been thinking (issue 12). Like
LXCFS and gVisor, a box gets fixed files in their place that describe the box itself
(one CPU, its own memory limit, nothing running but itself) and never change; every
other top-level entry of /proc that is not about the box's own processes is shown as an
empty file or folder. This is an allow-list: an entry a newer kernel adds is hidden too.
The backends mount these over the box's /proc (bwrap binds, Docker binds and masked
paths); /sys is not shown at all (bwrap) or replaced by an empty tmpfs (docker).
"""

from __future__ import annotations

import contextlib
import functools
from pathlib import Path

from sandbox.limits import Limits

PROC = Path("/proc")
KEPT = frozenset({"self", "thread-self", "net", "sys", "mounts", "filesystems", "version"})
"""Top-level /proc entries a box sees as they are: its own processes, its own network
namespace (one loopback), the kernel's settings and its version."""
HIDDEN_BELOW_KEPT = ("/proc/sys/fs",)
"""Host-wide counters inside a kept folder: open files, inodes and dentries of the host."""
STAND_IN_NAMES = ("cpuinfo", "loadavg", "meminfo", "stat", "uptime")


def stand_ins(limits: Limits) -> dict[str, str]:
    """The fixed content of each stood-in /proc file, for a box with these limits."""
    memory_kb = limits.memory_bytes // 1024
    meminfo = {
        "MemTotal": memory_kb,
        "MemFree": memory_kb,
        "MemAvailable": memory_kb,
        "Buffers": 0,
        "Cached": 0,
        "SwapCached": 0,
        "Active": 0,
        "Inactive": 0,
        "SwapTotal": 0,
        "SwapFree": 0,
        "Shmem": 0,
    }
    zeros = " 0" * 10
    return {
        "/proc/cpuinfo": _one_cpu_info(),
        "/proc/loadavg": "0.00 0.00 0.00 1/1 1\n",
        "/proc/meminfo": "".join(f"{key + ':':<16}{kb:>8} kB\n" for key, kb in meminfo.items()),
        "/proc/stat": (
            f"cpu {zeros}\ncpu0{zeros}\nintr 0\nctxt 0\nbtime {_boot_time()}\n"
            f"processes 1\nprocs_running 1\nprocs_blocked 0\nsoftirq{' 0' * 11}\n"
        ),
        "/proc/uptime": "0.00 0.00\n",
    }


@functools.cache
def hidden_paths() -> tuple[tuple[str, bool], ...]:
    """Every host-wide /proc entry that is neither kept nor stood in for, with whether
    it is a folder, as this host's kernel has them (a box's /proc has the same; read
    once, as /proc's top level only changes with the kernel)."""
    hidden = []
    for entry in sorted(PROC.iterdir()):
        name = entry.name
        if name.isdigit() or name in KEPT or name in STAND_IN_NAMES:
            continue
        hidden.append((str(entry), entry.is_dir() and not entry.is_symlink()))
    hidden += [(path, True) for path in HIDDEN_BELOW_KEPT if Path(path).is_dir()]
    return tuple(hidden)


def write_stand_ins(folder: Path, limits: Limits) -> dict[str, Path]:
    """The stand-ins as world-readable files in `folder` (made), by the path they stand in for."""
    folder.mkdir()
    folder.chmod(0o755)  # whatever the umask
    written = {}
    for path, content in stand_ins(limits).items():
        file = folder / Path(path).name
        file.write_text(content)
        file.chmod(0o644)
        written[path] = file
    return written


def _one_cpu_info() -> str:
    """The host's description of its first CPU, as the only one (frozen as it reads now)."""
    with contextlib.suppress(OSError):
        first = (PROC / "cpuinfo").read_text().split("\n\n")[0]
        lines = []
        for line in first.splitlines():
            key = line.partition(":")[0].strip()
            if key in ("siblings", "cpu cores"):
                line = f"{key}\t: 1"
            lines.append(line)
        return "\n".join(lines) + "\n\n"
    return "processor\t: 0\n\n"


def _boot_time() -> int:
    with contextlib.suppress(OSError, ValueError):
        for line in (PROC / "stat").read_text().splitlines():
            if line.startswith("btime "):
                return int(line.split()[1])
    return 0
