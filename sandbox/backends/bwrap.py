"""`bwrap`: bubblewrap namespaces plus a cgroup per box.

The box sees the host's /usr read-only (the system's Python and its standard library),
the bot's own folder read-only at /bot, Agon's bot library at /opt/agon/lib, a small
tmpfs at /tmp, and nothing else: no /etc, /home, /root, /var, no network, no host
environment. Namespaces: user (uid 65534), PID, IPC, UTS, mount, network, cgroup.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from sandbox.backends.base import BOX_ENV, BOX_UID, BoxSpec, ProcessBox, SandboxError
from sandbox.cgroups import BoxCgroup, CgroupUnavailable, check_available
from sandbox.libraries import library_binds

BOX_PYTHON = "/usr/bin/python3"


def _system_binds() -> list[str]:
    args = ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        path = Path(top)
        if path.is_symlink():
            args += ["--symlink", str(path.readlink()), top]
        elif path.is_dir():
            args += ["--ro-bind", top, top]
    return args


def bwrap_argv(spec: BoxSpec, executable: str) -> list[str]:
    argv = [
        executable,
        "--unshare-all",
        "--unshare-user",
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
    return [*argv, "--chdir", "/bot", "--", BOX_PYTHON, "main.py"]


class BwrapBackend:
    name = "bwrap"

    def __init__(self) -> None:
        self.executable = shutil.which("bwrap")

    def check(self) -> None:
        if self.executable is None:
            raise SandboxError("bubblewrap is not installed (Debian package: bubblewrap)")
        if not Path(BOX_PYTHON).exists():
            raise SandboxError(f"{BOX_PYTHON} is missing (Debian package: python3)")
        try:
            check_available()
        except CgroupUnavailable as error:
            raise SandboxError(f"bwrap boxes need cgroups for their limits: {error}") from error

    def open(self, spec: BoxSpec) -> ProcessBox:
        self.check()
        assert self.executable is not None  # noqa: S101 - check() makes sure
        cgroup = BoxCgroup(spec.limits.memory_bytes, spec.limits.pids)
        return ProcessBox(
            bwrap_argv(spec, self.executable),
            cwd=spec.package_dir,
            env={},
            cgroup=cgroup,
            launcher_runs_no_bot_code=True,
        )
