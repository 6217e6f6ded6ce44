"""The sandbox backends' names, apart from the backends: a command's options list them
(`--sandbox`) without importing a backend, subprocess or dataclasses (`sandbox.backends`
holds the backends themselves and reads its table from here)."""

from __future__ import annotations

BACKEND_CLASSES: dict[str, tuple[str, bool]] = {
    "docker": ("sandbox.backends.docker:DockerBackend", True),
    "bwrap": ("sandbox.backends.bwrap:BwrapBackend", True),
    "none": ("sandbox.backends.none:NoneBackend", False),
}
"""A backend's name -> "module:Class" of the backend, and whether it isolates a bot from
the host (only then may it run untrusted code)."""

AUTO_ORDER = ("docker", "bwrap")
"""What `auto` tries, in order: the strongest isolation first."""

BACKENDS = ("auto", *BACKEND_CLASSES)
ISOLATING_BACKENDS = tuple(name for name, (_, isolates) in BACKEND_CLASSES.items() if isolates)
