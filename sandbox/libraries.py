"""Agon's own packages that every box offers its bot: `agon_bot` and `engine`.

They are shown read-only at /opt/agon/lib inside a box (and copied there in the bot
image), so a bot can import the library for authors and the engine for lookahead.
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from pathlib import Path

BOX_LIBRARY_PATH = "/opt/agon/lib"
BOT_LIBRARIES = ("agon_bot", "engine")


@cache
def library_dirs() -> dict[str, Path]:
    """Each library package's folder on this host."""
    dirs = {}
    for name in BOT_LIBRARIES:
        module = importlib.import_module(name)
        if module.__file__ is None:
            raise RuntimeError(f"cannot find the {name} package's folder")
        dirs[name] = Path(module.__file__).resolve().parent
    return dirs


def library_binds() -> list[str]:
    """bubblewrap arguments showing each library read-only under /opt/agon/lib."""
    args = []
    for name, folder in sorted(library_dirs().items()):
        args += ["--ro-bind", str(folder), f"{BOX_LIBRARY_PATH}/{name}"]
    return args


def host_python_path() -> str:
    """PYTHONPATH that finds the libraries for an unboxed bot."""
    return os.pathsep.join(sorted({str(folder.parent) for folder in library_dirs().values()}))
