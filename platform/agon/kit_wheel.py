"""The bot kit as a wheel: `pip install` it and play, watch, check and measure matches on
your own machine, and send bots to a site, without a checkout of Agon, Django or
anything else.

It holds whole packages (SHIPPED): `agon_bot` (the library for bot authors), `engine`
(the rules, for lookahead and for playing), `sandbox` (the boxes and the referee
`agon-kit play` uses), `agon_kit` (the `agon-kit` command: `play`, `view`, `replay`,
`match`, `score`, and `login`, `submit`, `test` with a site, over the standard library's
urllib, with the site's replay viewer that `view` inlines) and `competition` (the pure
tournament formats, SPRT and ratings that `match` and `test` use). It depends on no
other package; the import-linter contracts keep Django and the platform out of those
packages.

The wheel is written here, with the standard library, from the files of this
installation: a zip with fixed timestamps and the files in a fixed order, so the same
files always give the same bytes. Its version carries a digest of those files (a local
version, `0.1.0+kit.1a2b3c4d`), so pip never takes an old kit for the new one.
`make kit` writes it to dist/ (`python -m agon.kit_wheel dist`); the site serves it
(agon.web.views.docs). It is the platform's, not the kit's: the kit has no use for it.

The wheel is one for any platform, so it holds no extension module: its Akropolis, Attika
and Megalopolis run in pure Python (one warning line each says so). The sdist beside it
(`kit_sdist`, the same files and version, and the command the guide gives) builds their
compiled cores at install (issue 32) with its own backend, `agon.core_build`: no
setuptools, no network, one call of the machine's C compiler per core; without one, the
install still succeeds, pure.
"""

from __future__ import annotations

import base64
import calendar
import functools
import gzip
import hashlib
import importlib
import importlib.machinery
import io
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

DISTRIBUTION = "agon_kit"
BASE_VERSION = "0.1.0"
ZIP_TIME = (2024, 1, 1, 0, 0, 0)
SHIPPED = ("agon_bot", "engine", "sandbox", "agon_kit", "competition")
"""The packages the kit is made of, each shipped whole (but its byte code); a subpackage
comes with its parents' `__init__.py` only."""
EXTRAS: dict[str, tuple[str, ...]] = {
    "envs": ("gymnasium==1.4.0", "numpy==2.4.6", "pettingzoo==1.27.0"),
    "tournament": ("networkx==3.6.1", "rich==15.0.0"),
}
"""The kit's optional parts and what each needs, at the versions the platform pins (a test
holds them to pyproject.toml): `agon_bot.envs` (training environments) and `agon-kit
tournament` (its tables and the Swiss pairing). `pip install "agon-kit[envs] @ URL"`;
without them the kit installs nothing else."""
SUMMARY = "Agon's bot kit: agon_bot, the engine, and agon-kit play / match / view / submit"
DESCRIPTION = """\
# Agon bot kit

Write a bot for Agon's city-building board games and try it on your machine.

    agon-kit play --game akropolis --seed 1 --sandbox none --replay m.json main.py builtin:greedy
    agon-kit view m.json          # m.html: the replay viewer, offline
    agon-kit replay verify m.json
    agon-kit match new.py old.py --game akropolis --sprt elo0=0,elo1=50   # is new stronger?
    agon-kit login                # once: the API token of the site's /my/token/ page
    agon-kit submit main.py --bot first --game akropolis --create
    agon-kit test --bot first --baseline builtin:greedy

`--sandbox none` runs the bots unboxed: for your own code only. `agon_bot` turns the bot
protocol into one function, `act(observation, legal_actions)`; `engine` is the rules, for
lookahead.
"""


BACKEND_MODULE = "agon_core_build"
"""The sdist's build backend: `agon.core_build`, at the sdist's root under this name."""
SDIST_PYPROJECT = f"""\
# The compiled cores (Akropolis', Attika's, Megalopolis') are built at install, where a C
# compiler is (issue 32); where none is, the kit installs without them and runs in pure Python.
[build-system]
requires = []
build-backend = "{BACKEND_MODULE}"
backend-path = ["."]
"""
ENTRY_POINTS = b"[console_scripts]\nagon-kit = agon_kit.cli:main\n"
Signature = tuple[tuple[str, str, int, int], ...]


@dataclass(frozen=True)
class Wheel:
    """A file of the kit to install: the wheel, or the sdist."""

    filename: str
    version: str
    content: bytes


def kit_files() -> list[tuple[str, Path]]:
    """(path in the wheel, file here) of everything the kit ships, in a fixed order."""
    files: dict[str, Path] = {}
    for package in SHIPPED:
        folder = _folder(package)
        for path in _package_files(folder):
            files[f"{package.replace('.', '/')}/{path.relative_to(folder).as_posix()}"] = path
        parent = package
        while "." in parent:
            parent = parent.rpartition(".")[0]
            files[f"{parent.replace('.', '/')}/__init__.py"] = _folder(parent) / "__init__.py"
    return sorted(files.items())


@functools.cache
def _folder(package: str) -> Path:
    return Path(importlib.import_module(package).__file__ or "").resolve().parent


def _package_files(folder: Path) -> Iterator[Path]:
    for path in sorted(folder.rglob("*")):
        if (
            path.is_file()
            and "__pycache__" not in path.parts
            and path.suffix != ".pyc"
            and not is_compiled_module(path)
        ):
            yield path


def is_compiled_module(path: Path) -> bool:
    """An extension module built here (a compiled core, issue 32): not shipped in the kit,
    a wheel for any platform; the sdist builds them at install (`agon.core_build`)."""
    return path.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def kit_wheel() -> Wheel:
    """The wheel of the files as they are now (kept while none of them changes)."""
    return _build(_signature())


def kit_sdist() -> Wheel:
    """The sdist of the files as they are now, the wheel's version (kept likewise)."""
    return _build_sdist(_signature())


def _signature() -> Signature:
    """What the kit is made of, by name, file, time and size; the backend's file last."""
    files = [*kit_files(), (f"{BACKEND_MODULE}.py", Path(__file__).with_name("core_build.py"))]
    return tuple(
        (name, str(path), path.stat().st_mtime_ns, path.stat().st_size) for name, path in files
    )


def _contents(signature: Signature) -> tuple[list[tuple[str, bytes]], bytes, str]:
    """The kit's files, the backend's source, and the version of both (the digest)."""
    contents = [(name, Path(path).read_bytes()) for name, path, _, _ in signature]
    digest = hashlib.sha256()
    for name, data in contents:
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    digest.update(_requirements().encode())
    return contents[:-1], contents[-1][1], f"{BASE_VERSION}+kit.{digest.hexdigest()[:8]}"


@functools.lru_cache(maxsize=2)
def _build(signature: Signature) -> Wheel:
    contents, _, version = _contents(signature)
    dist_info = f"{DISTRIBUTION}-{version}.dist-info"
    contents += [
        (f"{dist_info}/METADATA", _metadata(version).encode()),
        (f"{dist_info}/WHEEL", _wheel_file().encode()),
        (f"{dist_info}/entry_points.txt", ENTRY_POINTS),
    ]
    record = "".join(f"{name},sha256={_hash(data)},{len(data)}\n" for name, data in contents)
    contents.append((f"{dist_info}/RECORD", (record + f"{dist_info}/RECORD,,\n").encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in contents:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return Wheel(f"{DISTRIBUTION}-{version}-py3-none-any.whl", version, buffer.getvalue())


@functools.lru_cache(maxsize=2)
def _build_sdist(signature: Signature) -> Wheel:
    """A tar.gz of the kit's files, PKG-INFO, entry_points.txt, the backend and a
    pyproject.toml naming it: fixed times and owners, so the same files, the same bytes."""
    contents, backend, version = _contents(signature)
    top = f"{DISTRIBUTION}-{version}"
    contents += [
        ("PKG-INFO", _metadata(version).encode()),
        ("pyproject.toml", SDIST_PYPROJECT.encode()),
        ("entry_points.txt", ENTRY_POINTS),
        (f"{BACKEND_MODULE}.py", backend),
    ]
    buffer = io.BytesIO()
    with (
        gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as zipped,
        tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as archive,
    ):
        for name, data in sorted(contents):
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size = len(data)
            info.mtime = calendar.timegm((*ZIP_TIME, 0, 0, 0))
            info.mode = 0o644
            archive.addfile(info, io.BytesIO(data))
    return Wheel(f"{top}.tar.gz", version, buffer.getvalue())


def _hash(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _metadata(version: str) -> str:
    return (
        "Metadata-Version: 2.1\n"
        "Name: agon-kit\n"
        f"Version: {version}\n"
        f"Summary: {SUMMARY}\n"
        "Requires-Python: >=3.11\n"
        f"{_requirements()}"
        "Description-Content-Type: text/markdown\n"
        "\n" + DESCRIPTION
    )


def _requirements() -> str:
    return "".join(
        f"Provides-Extra: {extra}\n"
        + "".join(f'Requires-Dist: {need}; extra == "{extra}"\n' for need in needs)
        for extra, needs in EXTRAS.items()
    )


def _wheel_file() -> str:
    return (
        "Wheel-Version: 1.0\nGenerator: agon.kit_wheel\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )


def main(argv: list[str] | None = None) -> int:
    """`python -m agon.kit_wheel FOLDER`: write the wheel and the sdist there, print
    their paths (the wheel's last)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m agon.kit_wheel FOLDER", file=sys.stderr)
        return 2
    folder = Path(args[0])
    folder.mkdir(parents=True, exist_ok=True)
    for kit in (kit_sdist(), kit_wheel()):
        path = folder / kit.filename
        path.write_bytes(kit.content)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
