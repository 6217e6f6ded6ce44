"""Agon's own packages that every box offers its bot: `agon_bot` and `engine`.

They are shown read-only at /opt/agon/lib inside a box (and copied there in the bot
image), so a bot can import the library for authors and the engine for lookahead.

With their bytecode: a box cannot write (and a bot's interpreter must not write where
the next box reads), so a library without it is compiled again by every bot at its start,
which cost a random bot 3x its interpreter's start. The bot image compiles it when it is
built; a bubblewrap box is shown `compiled_copy`, made once per referee process by the
box's own interpreter.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
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


def compiled_copy(folder: Path, python: str) -> dict[str, Path]:
    """Copies of the libraries in `folder` (which must exist), with bytecode compiled by
    `python` for the paths a box shows them at; each copy's folder, by library.

    The copies keep the sources' times and whatever bytecode the host has for them
    already (an installed kit's, a checkout's after a run): `compileall` compiles only
    what is missing or stale, so a referee that starts often (`agon play`) pays little.
    Readable by all, writable by its maker only."""
    copies = {}
    for name, source in sorted(library_dirs().items()):
        copies[name] = folder / name
        shutil.copytree(source, copies[name])
    subprocess.run(  # noqa: S603 - a fixed argv, never a shell line
        [python, "-I", "-m", "compileall", "-q", "-d", BOX_LIBRARY_PATH, str(folder)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    for made in (folder, *folder.rglob("*")):
        made.chmod(0o755 if made.is_dir() else 0o644)
    return copies


def library_binds(dirs: dict[str, Path] | None = None) -> list[str]:
    """bubblewrap arguments showing each library (`dirs`, by default the host's own
    folders) read-only under /opt/agon/lib."""
    args = []
    for name, folder in sorted((dirs or library_dirs()).items()):
        args += ["--ro-bind", str(folder), f"{BOX_LIBRARY_PATH}/{name}"]
    return args


def host_python_path() -> str:
    """PYTHONPATH that finds the libraries for an unboxed bot."""
    return os.pathsep.join(sorted({str(folder.parent) for folder in library_dirs().values()}))
