"""Bot packages: a single `.py` file, or a `.zip` / `.tar.gz` with `main.py` at the top.

Unpacking is the first thing untrusted input touches, so it is strict and it happens in
two steps. First the archive's listing is checked whole, before anything is written:
names (no absolute paths, `..`, backslashes or NUL bytes), depth, name and path lengths,
file and folder counts, the declared sizes, and kinds (plain files and folders only: no
links, devices or anything else). Then the files are read, their sizes bounded again
while reading, never trusted from headers alone. A refused package leaves nothing behind.
"""

from __future__ import annotations

import gzip
import io
import os
import shutil
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO

from sandbox.errors import PackageError as PackageError  # re-exported: its home for most
from sandbox.preflight import (
    BOX_DESCRIPTION,
    MAX_FILE_BYTES,
    MAX_PROBLEMS_SHOWN,
    python_problems,
)

MAX_PACKED_BYTES = 5 * 1024 * 1024
MAX_UNPACKED_BYTES = 50 * 1024 * 1024
MAX_FILES = 1000
MAX_FOLDERS = 1000
MAX_DEPTH = 32
"""Path components in one name: `a/b/c.py` is 3 levels deep."""
MAX_NAME_BYTES = 255
"""One component, in UTF-8 bytes: what Linux file systems take."""
MAX_PATH_BYTES = 1024
"""A whole path inside the package, in UTF-8 bytes."""
ENTRY_POINT = "main.py"

MAX_TAR_STREAM_BYTES = MAX_UNPACKED_BYTES + (MAX_FILES + MAX_FOLDERS) * 4096
"""What a `.tar.gz` may inflate to: the files, plus a header, a long name and padding
for each member."""


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


def shown(name: str) -> str:
    """A member's name quoted for a message, cut short when it is long."""
    return repr(name if len(name) <= 100 else f"{name[:60]}...{name[-30:]}")


def safe_parts(name: str) -> tuple[str, ...]:
    """The path parts of an archive member, refusing anything that could leave the folder
    or that a file system would not take."""
    if "\\" in name or "\x00" in name:
        raise PackageError(f"{shown(name)}: backslashes and NUL bytes are not allowed in names")
    path = PurePosixPath(name)
    if path.is_absolute():
        raise PackageError(f"{shown(name)}: absolute paths are not allowed")
    parts = tuple(part for part in path.parts if part not in ("", "."))
    if ".." in parts:
        raise PackageError(f"{shown(name)}: '..' is not allowed in paths")
    if len(parts) > MAX_DEPTH:
        raise PackageError(f"{shown(name)}: nested more than {MAX_DEPTH} levels deep")
    sizes = [len(os.fsencode(part)) for part in parts]
    if any(size > MAX_NAME_BYTES for size in sizes):
        raise PackageError(f"{shown(name)}: a name longer than {MAX_NAME_BYTES} bytes")
    if sum(sizes) + len(sizes) > MAX_PATH_BYTES:
        raise PackageError(f"{shown(name)}: a path longer than {MAX_PATH_BYTES} bytes")
    return parts


# --- the listing ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Member:
    name: str
    """As the archive spells it, for messages."""
    parts: tuple[str, ...]
    size: int
    """Declared by the archive; reading stops there too."""
    source: object
    """What the archive's reader needs to open it (a ZipInfo, a TarInfo, bytes)."""


@dataclass
class _Listing:
    """What a package will write, checked member by member as it is read."""

    files: list[_Member] = field(default_factory=list)
    folders: set[tuple[str, ...]] = field(default_factory=set)
    entries: int = 0
    declared_bytes: int = 0
    _file_parts: set[tuple[str, ...]] = field(default_factory=set)

    def count_entry(self) -> None:
        # Folder entries repeated by the thousand cost an archive next to nothing.
        self.entries += 1
        if self.entries > MAX_FILES + MAX_FOLDERS:
            raise PackageError(f"more than {MAX_FILES + MAX_FOLDERS} entries")

    def add_folder(self, parts: tuple[str, ...], name: str) -> None:
        for depth in range(1, len(parts) + 1):
            folder = parts[:depth]
            if folder in self.folders:
                continue
            if folder in self._file_parts:
                raise PackageError(f"{shown(name)}: a file and a folder have the same name")
            self.folders.add(folder)
            if len(self.folders) > MAX_FOLDERS:
                raise PackageError(f"more than {MAX_FOLDERS} folders (at {shown(name)})")

    def add_file(self, member: _Member) -> None:
        if not member.parts:
            raise PackageError(f"{shown(member.name)}: an empty name")
        if member.parts in self._file_parts:
            raise PackageError(f"{shown(member.name)} appears twice")
        if member.parts in self.folders:
            raise PackageError(f"{shown(member.name)}: a file and a folder have the same name")
        self.add_folder(member.parts[:-1], member.name)
        self._file_parts.add(member.parts)
        self.files.append(member)
        if len(self.files) > MAX_FILES:
            raise PackageError(f"more than {MAX_FILES} files")
        self.declared_bytes += member.size
        if self.declared_bytes > MAX_UNPACKED_BYTES:
            raise _too_big(member.name)

    def finish(self) -> None:
        if (ENTRY_POINT,) not in self._file_parts:
            raise PackageError(f"there is no {ENTRY_POINT} at the top of the package")


def _too_big(name: str | None = None) -> PackageError:
    where = f" (at {shown(name)})" if name else ""
    return PackageError(f"unpacks to more than {MAX_UNPACKED_BYTES // (1024 * 1024)} MiB{where}")


@dataclass
class _Package:
    listing: _Listing
    open: Callable[[_Member], IO[bytes]]


@contextmanager
def _opened(data: bytes, filename: str) -> Iterator[_Package]:
    """The package's checked listing and a way to read each file; PackageError if the
    listing breaks any rule."""
    kind = package_kind(filename)
    if len(data) > MAX_PACKED_BYTES:
        raise PackageError(f"the package is larger than {MAX_PACKED_BYTES // (1024 * 1024)} MiB")
    if kind == "py":
        listing = _Listing()
        listing.add_file(_Member(ENTRY_POINT, (ENTRY_POINT,), len(data), data))
        yield _Package(listing, lambda member: io.BytesIO(data))
    elif kind == "zip":
        with _zip_package(data) as package:
            yield package
    else:
        with _tar_package(data) as package:
            yield package


@contextmanager
def _zip_package(data: bytes) -> Iterator[_Package]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError) as error:
        raise PackageError(f"not a valid zip archive: {error}") from None
    with archive:
        listing = _Listing()
        for info in archive.infolist():
            listing.count_entry()
            parts = safe_parts(info.filename)
            if info.is_dir():
                listing.add_folder(parts, info.filename)
                continue
            if stat.S_IFMT(info.external_attr >> 16) not in (0, stat.S_IFREG):
                raise PackageError(
                    f"{shown(info.filename)}: only plain files and folders are allowed"
                )
            listing.add_file(_Member(info.filename, parts, info.file_size, info))
        listing.finish()

        def open_member(member: _Member) -> IO[bytes]:
            assert isinstance(member.source, zipfile.ZipInfo)  # noqa: S101 - made above
            return archive.open(member.source)

        yield _Package(listing, open_member)


@contextmanager
def _tar_package(data: bytes) -> Iterator[_Package]:
    raw = _inflate(data)
    try:
        archive = tarfile.open(fileobj=io.BytesIO(raw), mode="r:")  # noqa: SIM115
    except tarfile.TarError as error:
        raise PackageError(f"not a valid .tar.gz archive: {error}") from None
    with archive:
        listing = _Listing()
        try:
            for member in archive:
                listing.count_entry()
                parts = safe_parts(member.name)
                if member.isdir():
                    listing.add_folder(parts, member.name)
                elif member.isreg():
                    listing.add_file(_Member(member.name, parts, member.size, member))
                else:
                    raise PackageError(
                        f"{shown(member.name)}: links, devices and other special files are "
                        "not allowed"
                    )
        except (tarfile.TarError, EOFError) as error:
            raise PackageError(f"the archive is damaged: {error}") from None
        listing.finish()

        def open_member(member: _Member) -> IO[bytes]:
            assert isinstance(member.source, tarfile.TarInfo)  # noqa: S101 - made above
            source = archive.extractfile(member.source)
            if source is None:
                raise PackageError(f"{shown(member.name)} cannot be read")
            return source

        yield _Package(listing, open_member)


def _inflate(data: bytes) -> bytes:
    """The tar inside a gzip stream, refused as soon as it grows past what a package may
    hold (a few megabytes of gzip can hold gigabytes of zeros)."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            raw = stream.read(MAX_TAR_STREAM_BYTES + 1)
    except gzip.BadGzipFile as error:
        raise PackageError(f"not a valid .tar.gz archive: {error}") from None
    except (EOFError, OSError, zlib.error) as error:
        raise PackageError(f"the archive is damaged: {error}") from None
    if len(raw) > MAX_TAR_STREAM_BYTES:
        raise _too_big()
    return raw


# --- reading and writing -------------------------------------------------------------


def _read_files(package: _Package, write: Callable[[_Member], IO[bytes] | None]) -> int:
    """Read every file of the package into what `write` gives for it (None: read and
    drop), counting the bytes against the limit as they come; the total."""
    total = 0
    for member in package.listing.files:
        target = write(member)
        try:
            with package.open(member) as source:
                while chunk := source.read(65536):
                    total += len(chunk)
                    if total > MAX_UNPACKED_BYTES:
                        raise _too_big(member.name)
                    if target is not None:
                        target.write(chunk)
        except (zipfile.BadZipFile, tarfile.TarError, EOFError, zlib.error) as error:
            raise PackageError(f"{shown(member.name)} cannot be read: {error}") from None
        except (NotImplementedError, RuntimeError) as error:  # zip: a method or encryption
            raise PackageError(f"{shown(member.name)} cannot be read: {error}") from None
        finally:
            if target is not None:
                target.close()
    return total


def check_package(data: bytes, filename: str) -> PackageInfo:
    """Check a bot package as `unpack_bot` would, reading every file but writing nothing,
    then its Python as far as it can be read without running it (`sandbox.preflight`);
    PackageError if unacceptable."""
    sources: dict[PurePosixPath, io.BytesIO] = {}

    def keep_python(member: _Member) -> IO[bytes] | None:
        if not member.name.endswith(".py") or member.size > MAX_FILE_BYTES:
            return None
        kept = sources[PurePosixPath(*member.parts)] = _KeptBytes()
        return kept

    with _opened(data, filename) as package:
        total = _read_files(package, keep_python)
        info = PackageInfo(len(package.listing.files), total)
    problems = python_problems({path: kept.getvalue() for path, kept in sources.items()})
    if problems:
        shown_problems = "; ".join(str(problem) for problem in problems[:MAX_PROBLEMS_SHOWN])
        more = len(problems) - MAX_PROBLEMS_SHOWN
        raise PackageError(
            f"the bot cannot start: {shown_problems}"
            + (f" (and {more} more)" if more > 0 else "")
            + f". A box has {BOX_DESCRIPTION}."
        )
    return info


class _KeptBytes(io.BytesIO):
    """Keeps its bytes when closed (`_read_files` closes what it writes to)."""

    def close(self) -> None:
        pass


def unpack_bot(data: bytes, filename: str, dest: Path) -> PackageInfo:
    """Check and unpack a bot into `dest`, an empty folder; PackageError if unacceptable,
    and then `dest` is left empty."""
    with _opened(data, filename) as package:
        try:
            for folder in sorted(package.listing.folders, key=len):
                dest.joinpath(*folder).mkdir(mode=0o755)

            def write(member: _Member) -> IO[bytes]:
                target = dest.joinpath(*member.parts)
                out = target.open("xb")
                target.chmod(0o644)
                return out

            total = _read_files(package, write)
        except BaseException:
            _empty(dest)
            raise
        return PackageInfo(len(package.listing.files), total)


def _empty(folder: Path) -> None:
    for child in folder.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)
