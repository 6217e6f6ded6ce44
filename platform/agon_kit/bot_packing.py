"""A bot as `submit` uploads it: a file as it is, a folder packed as a .tar.gz with its
main.py at the top, both refused here for whatever the site would refuse (the site's own
checks, `sandbox.packages.check_package`), before anything is sent.

Packing stops as soon as the folder has more files or bytes than a package may hold:
pointed at a home folder by mistake, it says so at once instead of reading all of it."""

from __future__ import annotations

import io
import os
import tarfile
from collections.abc import Iterator
from pathlib import Path

from sandbox.packages import (
    ENTRY_POINT,
    MAX_FILES,
    MAX_PACKED_BYTES,
    MAX_UNPACKED_BYTES,
    PackageError,
    check_package,
)

LEFT_OUT = frozenset(
    ("__pycache__", ".git", ".hg", ".svn", ".venv", "venv", ".mypy_cache", ".pytest_cache")
)
"""Folders a bot never needs: caches, version control, virtual environments."""


def checked(path: Path) -> tuple[str, bytes]:
    """The upload's file name and bytes, checked as the site checks them."""
    filename, data = _packed(path) if path.is_dir() else _file(path)
    if len(data) > MAX_PACKED_BYTES:
        raise _too_big(filename, len(data))
    check_package(data, filename)
    return filename, data


def _file(path: Path) -> tuple[str, bytes]:
    if not path.is_file():
        raise PackageError(f"{path}: no such file or folder")
    size = path.stat().st_size
    if size > MAX_PACKED_BYTES:
        raise _too_big(path.name, size)
    return path.name, path.read_bytes()


def _too_big(filename: str, size: int) -> PackageError:
    return PackageError(
        f"{filename} is {size / 2**20:.1f} MiB; the site takes at most "
        f"{MAX_PACKED_BYTES // 2**20} MiB"
    )


def _packed(folder: Path) -> tuple[str, bytes]:
    if not (folder / ENTRY_POINT).is_file():
        raise PackageError(f"{folder} has no {ENTRY_POINT} at its top")
    buffer = io.BytesIO()
    files = unpacked = 0
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for member in _bot_files(folder):
            files += 1
            unpacked += member.stat().st_size
            if files > MAX_FILES:
                raise PackageError(f"{folder} holds more than {MAX_FILES} files: a bot may not")
            if unpacked > MAX_UNPACKED_BYTES:
                raise PackageError(
                    f"{folder} holds more than {MAX_UNPACKED_BYTES // 2**20} MiB: a bot may not"
                )
            archive.add(member, arcname=member.relative_to(folder).as_posix(), recursive=False)
    name = folder.resolve().name or "bot"
    return f"{name}.tar.gz", buffer.getvalue()


def _bot_files(folder: Path) -> Iterator[Path]:
    """The folder's plain files in a fixed order, walked as they are packed (not listed
    whole first), but for the folders left out, byte code and links."""
    for top, folders, names in os.walk(folder):
        folders[:] = sorted(name for name in folders if name not in LEFT_OUT)
        for name in sorted(names):
            member = Path(top) / name
            if not name.endswith(".pyc") and member.is_file() and not member.is_symlink():
                yield member
