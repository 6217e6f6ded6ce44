"""The platform's one door to the sandbox: what of `sandbox` the platform uses, and the
only module of the Django project that imports it (the `agon` command line aside: it
plays matches on the author's machine). An import-linter contract in pyproject.toml
keeps it so: a new use of the sandbox is a line here, in plain sight.

- A match in boxes: `run_match` plays one (a `Program` per seat in, a `MatchRecord` out)
  and raises `SandboxError` when the sandbox itself fails, not a bot. The matches' task
  plays the platform's matches with it, a worker's health check its self-test match.
- A bot's package, checked when it is uploaded, before anything is stored:
  `check_package` (a `PackageError` says what is wrong) and `MAX_PACKED_BYTES`, the
  largest package the API reads.
- The backends that AGON_SANDBOX may name: `BACKENDS`.
- The bwrap backend's fork server, which a process keeps between its matches:
  `fork_server_running` and `stop_fork_server` (the self-test stops the one it started),
  `bwrap_box_path` (forked or started by bubblewrap, and why; the health check says it).
- A game's limits (`limits_for`, a `Limits`), which a competition's page states.
"""

from __future__ import annotations

from sandbox.backends import BACKENDS, SandboxError
from sandbox.backends.bwrap import BwrapBackend, fork_server_running, stop_fork_server
from sandbox.limits import Limits, limits_for
from sandbox.packages import MAX_PACKED_BYTES, PackageError, check_package
from sandbox.runner import MatchRecord, Program, run_match

__all__ = [
    "BACKENDS",
    "MAX_PACKED_BYTES",
    "Limits",
    "MatchRecord",
    "PackageError",
    "Program",
    "SandboxError",
    "bwrap_box_path",
    "check_package",
    "fork_server_running",
    "limits_for",
    "run_match",
    "stop_fork_server",
]


def bwrap_box_path() -> str:
    """How this process's bwrap boxes are made: `fork server`, or `bubblewrap (why)`."""
    return BwrapBackend().box_path()
