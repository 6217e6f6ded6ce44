"""Bot packages: a single `.py` file, or a `.zip` / `.tar.gz` with `main.py` at the top.

Unpacking is the first thing untrusted input touches, so it is strict: sizes, file and
folder counts are bounded while reading (not trusted from headers), and absolute paths, `..`,
links, devices and anything else that is not a plain file or folder are refused.
Nothing is ever written outside the destination folder.
"""

from __future__ import annotations

import io
import shutil
import stat
import tarfile
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

MAX_PACKED_BYTES = 5 * 1024 * 1024
MAX_UNPACKED_BYTES = 50 * 1024 * 1024
MAX_FILES = 1000
MAX_FOLDERS = 1000
ENTRY_POINT = "main.py"


class PackageError(ValueError):
    """A bot package that cannot be accepted; the message says why, for its author."""


@dataclass(frozen=True)
class PackageInfo:
    files: int
    unpacked_bytes: int


def package_kind(filename: str) -> str:
    name = filename.lower()
    for suffix, kind in ((".py", "py"), (".zip", "zip"), (".tar.gz", "tar"), (".tgz", "tar")):
        if name.endswith(suffix):
            return kind
    raise PackageError(
        f"{filename!r}: a bot is a .py file, or a .zip or .tar.gz archive with main.py at the top"
    )


def safe_parts(name: str) -> tuple[str, ...]:
    """The path parts of an archive member, refusing anything that could leave the folder."""
    if "\\" in name or "\x00" in name:
        raise PackageError(f"{name!r}: backslashes and NUL bytes are not allowed in names")
    path = PurePosixPath(name)
    if path.is_absolute():
        raise PackageError(f"{name!r}: absolute paths are not allowed")
    parts = tuple(part for part in path.parts if part not in ("", "."))
    if ".." in parts:
        raise PackageError(f"{name!r}: '..' is not allowed in paths")
    return parts


class _Budget:
    def __init__(self) -> None:
        self.files = 0
        self.folders = 0
        self.bytes = 0

    def add_file(self, name: str) -> None:
        self.files += 1
        if self.files > MAX_FILES:
            raise PackageError(f"more than {MAX_FILES} files")

    def add_folder(self, name: str) -> None:
        self.folders += 1
        if self.folders > MAX_FOLDERS:
            raise PackageError(f"more than {MAX_FOLDERS} folders (at {name!r})")

    def copy(self, source: IO[bytes], target: Path, name: str) -> None:
        with target.open("xb") as out:
            while chunk := source.read(65536):
                self.bytes += len(chunk)
                if self.bytes > MAX_UNPACKED_BYTES:
                    raise PackageError(
                        f"unpacks to more than {MAX_UNPACKED_BYTES // (1024 * 1024)} MiB "
                        f"(at {name!r})"
                    )
                out.write(chunk)
        target.chmod(0o644)


def _target(dest: Path, parts: tuple[str, ...], name: str) -> Path:
    target = dest.joinpath(*parts)
    if not target.resolve().is_relative_to(dest.resolve()):
        raise PackageError(f"{name!r} would land outside the bot's folder")
    return target


def _make_dirs(dest: Path, parts: tuple[str, ...], name: str, budget: _Budget) -> None:
    for depth in range(1, len(parts) + 1):
        folder = _target(dest, parts[:depth], name)
        if folder.is_dir():
            continue
        if folder.exists():
            raise PackageError(f"{name!r}: a file and a folder have the same name")
        budget.add_folder(name)
        folder.mkdir(mode=0o755)


def _unpack_zip(data: bytes, dest: Path, budget: _Budget) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as error:
        raise PackageError(f"not a valid zip archive: {error}") from None
    with archive:
        for info in archive.infolist():
            parts = safe_parts(info.filename)
            mode = info.external_attr >> 16
            kind = stat.S_IFMT(mode)
            if info.is_dir():
                if parts:
                    _make_dirs(dest, parts, info.filename, budget)
                continue
            if kind not in (0, stat.S_IFREG):
                raise PackageError(f"{info.filename!r}: only plain files and folders are allowed")
            if not parts:
                raise PackageError(f"{info.filename!r}: an empty name")
            budget.add_file(info.filename)
            _make_dirs(dest, parts[:-1], info.filename, budget)
            try:
                with archive.open(info) as source:
                    budget.copy(source, _target(dest, parts, info.filename), info.filename)
            except FileExistsError:
                raise PackageError(f"{info.filename!r} appears twice") from None
            except (zipfile.BadZipFile, NotImplementedError, RuntimeError) as error:
                raise PackageError(f"{info.filename!r} cannot be read: {error}") from None


def _unpack_tar(data: bytes, dest: Path, budget: _Budget) -> None:
    try:
        archive = tarfile.open(fileobj=io.BytesIO(data), mode="r:gz")  # noqa: SIM115
    except (tarfile.TarError, OSError, EOFError) as error:
        raise PackageError(f"not a valid .tar.gz archive: {error}") from None
    with archive:
        try:
            for member in archive:
                parts = safe_parts(member.name)
                if member.isdir():
                    if parts:
                        _make_dirs(dest, parts, member.name, budget)
                    continue
                if not member.isreg():
                    raise PackageError(
                        f"{member.name!r}: links, devices and other special files are not allowed"
                    )
                if not parts:
                    raise PackageError(f"{member.name!r}: an empty name")
                budget.add_file(member.name)
                _make_dirs(dest, parts[:-1], member.name, budget)
                source = archive.extractfile(member)
                if source is None:
                    raise PackageError(f"{member.name!r} cannot be read")
                try:
                    budget.copy(source, _target(dest, parts, member.name), member.name)
                except FileExistsError:
                    raise PackageError(f"{member.name!r} appears twice") from None
        except (tarfile.TarError, OSError, EOFError, zlib.error) as error:
            raise PackageError(f"the archive is damaged: {error}") from None


def unpack_bot(data: bytes, filename: str, dest: Path) -> PackageInfo:
    """Check and unpack a bot into `dest` (an empty folder); PackageError if unacceptable.

    On error `dest` may hold part of the package; the caller throws the folder away.
    """
    kind = package_kind(filename)
    if len(data) > MAX_PACKED_BYTES:
        raise PackageError(f"the package is larger than {MAX_PACKED_BYTES // (1024 * 1024)} MiB")
    budget = _Budget()
    if kind == "py":
        budget.add_file(ENTRY_POINT)
        budget.copy(io.BytesIO(data), dest / ENTRY_POINT, ENTRY_POINT)
    elif kind == "zip":
        _unpack_zip(data, dest, budget)
    else:
        _unpack_tar(data, dest, budget)
    entry = dest / ENTRY_POINT
    if not entry.is_file():
        raise PackageError(f"there is no {ENTRY_POINT} at the top of the package")
    return PackageInfo(budget.files, budget.bytes)


@contextmanager
def unpacked_bot(data: bytes, filename: str, parent: Path | None = None) -> Iterator[Path]:
    """A temporary folder holding the unpacked bot, removed afterwards whatever happens."""
    folder = Path(tempfile.mkdtemp(prefix="agon-bot-", dir=parent))
    try:
        folder.chmod(0o755)
        unpack_bot(data, filename, folder)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
