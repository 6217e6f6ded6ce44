"""Sandbox backends by name; `auto` picks the first of `AUTO_ORDER` that works here.

A backend is its module plus its line in `sandbox.backend_names`: the settings, `agon play
--sandbox`, the health check and the test suite (which runs every isolating backend
through the hostile-bot suite) all read this table. Each module is imported the first
time its backend is asked for: the Docker SDK costs a process that boxes with bwrap
nothing.
"""

from __future__ import annotations

import importlib

from sandbox.backend_names import AUTO_ORDER, BACKEND_CLASSES, BACKENDS, ISOLATING_BACKENDS
from sandbox.backends.base import Backend, Box, BoxSpec, SandboxError

__all__ = [
    "AUTO_ORDER",
    "BACKENDS",
    "ISOLATING_BACKENDS",
    "Backend",
    "Box",
    "BoxSpec",
    "SandboxError",
    "get_backend",
]


def _construct(name: str) -> Backend:
    module_name, _, attribute = BACKEND_CLASSES[name][0].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:  # the bot kit installs no docker SDK, for one
        missing = f"it needs the Python package {error.name!r}, not installed here"
        raise SandboxError(missing) from None
    backend: Backend = getattr(module, attribute)()
    if backend.name != name:
        raise RuntimeError(f"sandbox entry {name!r} makes the backend {backend.name!r}")
    return backend


def get_backend(name: str) -> Backend:
    """The backend called `name`, checked to work here; SandboxError with the reason if not."""
    if name == "auto":
        reasons = []
        for candidate in AUTO_ORDER:
            try:
                return get_backend(candidate)
            except SandboxError as error:
                reasons.append(f"{candidate}: {error}")
        raise SandboxError("no sandbox works here (" + "; ".join(reasons) + ")")
    if name not in BACKEND_CLASSES:
        raise SandboxError(f"unknown sandbox {name!r}; choose one of {', '.join(BACKENDS)}")
    backend = _construct(name)
    backend.check()
    return backend
