"""`none`: the bot runs as a plain child process. Trusted local code only."""

from __future__ import annotations

import sys

from sandbox.backends.base import BOX_ENV, BoxSpec, ProcessBox
from sandbox.libraries import host_python_path


class NoneBackend:
    name = "none"

    def check(self) -> None:
        """Always available."""

    def open(self, spec: BoxSpec) -> ProcessBox:
        env = {**BOX_ENV, "PYTHONPATH": host_python_path(), "HOME": str(spec.package_dir)}
        return ProcessBox([sys.executable, "main.py"], cwd=spec.package_dir, env=env, cgroup=None)
