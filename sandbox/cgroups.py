"""Control groups for boxes: memory, process and CPU limits, freezing a box between its
turns, and killing a whole process tree at once.

Works with cgroup v2 (the unified hierarchy) and with the v1 controllers
(memory, pids, freezer, cpu) that older hosts mount separately.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
V1_CONTROLLERS = ("memory", "pids", "freezer", "cpu")
CPU_PERIOD_US = 100_000
BOX_PREFIX = "agon-box-"


class CgroupUnavailable(RuntimeError):
    pass


def _write(path: Path, value: str) -> None:
    path.write_text(value)


def _v2_root() -> Path | None:
    if (ROOT / "cgroup.controllers").exists():
        return ROOT
    return None


def check_available() -> None:
    """CgroupUnavailable with the reason unless boxes can get their own cgroups here."""
    if _v2_root() is not None:
        controllers = (ROOT / "cgroup.controllers").read_text().split()
        missing = {"memory", "pids", "cpu"} - set(controllers)
        if missing:
            raise CgroupUnavailable(f"cgroup v2 lacks the {', '.join(sorted(missing))} controllers")
        if not os.access(ROOT, os.W_OK):
            raise CgroupUnavailable("the cgroup v2 hierarchy is not writable (run as root)")
        return
    for controller in V1_CONTROLLERS:
        folder = ROOT / controller
        if not folder.is_dir():
            raise CgroupUnavailable(f"no cgroup v1 {controller} controller at {folder}")
        if not os.access(folder, os.W_OK):
            raise CgroupUnavailable(f"{folder} is not writable (run as root)")


def _pid_alive(pid: int) -> bool:
    """Whether the process exists and has not died (a zombie waiting to be reaped has)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def reap_orphans() -> list[str]:
    """Kill and remove the boxes whose referee is gone; the names of those reaped.

    A referee that dies without closing its boxes (a worker killed with SIGKILL, the
    OOM killer) leaves them behind, and a box frozen between two turns stays frozen for
    good: its processes cannot even die of SIGKILL until thawed. Each box's name holds
    its referee's pid, so the next box made on this host cleans up after the dead one.
    Pids are those of this host's PID namespace: referees in other namespaces must not
    share this cgroup folder.
    """
    parent = ROOT / "agon" if _v2_root() is not None else ROOT / "freezer" / "agon"
    try:
        names = [path.name for path in parent.iterdir() if path.name.startswith(BOX_PREFIX)]
    except OSError:
        return []
    reaped = []
    for name in names:
        owner, _, _ = name.removeprefix(BOX_PREFIX).partition("-")
        if not owner.isdigit() or _pid_alive(int(owner)):
            continue  # a box of a live referee, or of an older version (no pid)
        with contextlib.suppress(OSError):
            BoxCgroup._existing(name).remove()
            reaped.append(name)
    return reaped


class BoxCgroup:
    """One box's cgroup(s). Create, `attach` the box's first process, then control it."""

    def __init__(self, memory_bytes: int, pids: int, cpus: float = 1.0) -> None:
        check_available()
        reap_orphans()
        # The referee's pid in the name tells whether the box outlived it (reap_orphans).
        self.name = f"{BOX_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self._procs_fd: int | None = None
        self._freezer_fd: int | None = None
        self.v2 = _v2_root() is not None
        if self.v2:
            parent = ROOT / "agon"
            if not parent.exists():
                parent.mkdir()
                _write(parent / "cgroup.subtree_control", "+memory +pids +cpu")
            self.folders = {"unified": parent / self.name}
        else:
            self.folders = {c: ROOT / c / "agon" / self.name for c in V1_CONTROLLERS}
        self._create(memory_bytes, pids, cpus)

    @classmethod
    def _existing(cls, name: str) -> BoxCgroup:
        """A handle on a box made by another process (to kill and remove it)."""
        box = cls.__new__(cls)
        box.name = name
        box._procs_fd = None
        box._freezer_fd = None
        box.v2 = _v2_root() is not None
        if box.v2:
            box.folders = {"unified": ROOT / "agon" / name}
        else:
            box.folders = {c: ROOT / c / "agon" / name for c in V1_CONTROLLERS}
        return box

    def _create(self, memory_bytes: int, pids: int, cpus: float) -> None:
        for folder in self.folders.values():
            folder.mkdir(parents=True)
        quota = str(int(cpus * CPU_PERIOD_US))
        if self.v2:
            unified = self.folders["unified"]
            _write(unified / "memory.max", str(memory_bytes))
            _write(unified / "memory.swap.max", "0")
            _write(unified / "pids.max", str(pids))
            _write(unified / "cpu.max", f"{quota} {CPU_PERIOD_US}")
        else:
            memory = self.folders["memory"]
            _write(memory / "memory.limit_in_bytes", str(memory_bytes))
            with contextlib.suppress(OSError):  # no swap accounting on this kernel
                _write(memory / "memory.memsw.limit_in_bytes", str(memory_bytes))
            _write(self.folders["pids"] / "pids.max", str(pids))
            _write(self.folders["cpu"] / "cpu.cfs_period_us", str(CPU_PERIOD_US))
            _write(self.folders["cpu"] / "cpu.cfs_quota_us", quota)

    def attach_self(self) -> None:
        """Move the calling process in; run in the child between fork and exec."""
        pid = str(os.getpid())
        for folder in self.folders.values():
            _write(folder / "cgroup.procs", pid)

    def procs_files(self) -> list[Path]:
        """Each `cgroup.procs` of the box (one per hierarchy): writing "0" to all of
        them moves the writer in. Opened by the referee, they let a process without its
        privileges (the fork server's) move itself in."""
        return [folder / "cgroup.procs" for folder in self.folders.values()]

    def pids_inside(self) -> list[int]:
        folder = self.folders.get("unified") or self.folders["pids"]
        if not self.v2:
            # v1 keeps the list it made for an open file for as long as reads keep
            # coming, so a kept descriptor shows the box as it was: open it every time.
            try:
                return [int(pid) for pid in (folder / "cgroup.procs").read_bytes().split()]
            except OSError:
                return []
        if self._procs_fd is None:
            try:
                self._procs_fd = os.open(folder / "cgroup.procs", os.O_RDONLY)
            except OSError:
                return []
        try:
            return [int(pid) for pid in os.pread(self._procs_fd, 1 << 20, 0).split()]
        except OSError:
            return []

    def freeze(self) -> None:
        os.pwrite(self._freezer(), b"1" if self.v2 else b"FROZEN", 0)

    def thaw(self) -> None:
        os.pwrite(self._freezer(), b"0" if self.v2 else b"THAWED", 0)

    def _freezer(self) -> int:
        """A descriptor on the file that freezes the box, opened at its first use and
        kept until `remove`: the referee freezes and thaws a box twice a turn."""
        if self._freezer_fd is None:
            path = (
                self.folders["unified"] / "cgroup.freeze"
                if self.v2
                else self.folders["freezer"] / "freezer.state"
            )
            self._freezer_fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
        return self._freezer_fd

    def oom_killed(self) -> bool:
        """Whether the kernel killed a process of the box for running out of memory."""
        if self.v2:
            path, key = self.folders["unified"] / "memory.events", "oom_kill"
        else:
            path, key = self.folders["memory"] / "memory.oom_control", "oom_kill"
        try:
            for line in path.read_text().splitlines():
                name, _, value = line.partition(" ")
                if name == key and int(value) > 0:
                    return True
        except OSError:
            pass
        return False

    def memory_peak(self) -> int | None:
        path = (
            self.folders["unified"] / "memory.peak"
            if self.v2
            else self.folders["memory"] / "memory.max_usage_in_bytes"
        )
        try:
            return int(path.read_text())
        except (OSError, ValueError):
            return None

    def kill_all(self, timeout: float = 5.0) -> None:
        """SIGKILL every process in the box, frozen first so none can fork away."""
        with contextlib.suppress(OSError):
            self.freeze()
        deadline = time.monotonic() + timeout
        while pids := self.pids_inside():
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                self.thaw()  # a frozen process only dies once thawed
            if time.monotonic() > deadline:
                break
            time.sleep(0.005)

    def remove(self) -> None:
        self.kill_all()
        for fd in (self._procs_fd, self._freezer_fd):
            if fd is not None:
                os.close(fd)
        self._procs_fd = self._freezer_fd = None
        for folder in self.folders.values():
            for _ in range(100):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)
