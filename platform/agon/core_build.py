"""Building the compiled cores (issue 32: Akropolis', Attika's, Megalopolis') where
setuptools is not at hand: the bot kit's sdist builds with this file as its PEP 517
backend, and the bot image's build stage runs it as a script, each against the Python
that will import the modules.

`make venv` and the application image build the cores with setuptools
(`pyproject.toml`'s `ext-modules`); a bot's box and a bot author's machine may have no
setuptools at all (Debian's minimal python3, a fresh virtual environment, pip without
network), so the recipe here is the standard library's `sysconfig` and one call of the C
compiler: the same flags setuptools would pass on Linux and macOS. Where the compiler is
missing or fails, the build goes on without the module and says so in one line; the
engine then runs in pure Python and says so in one line too (`engine.akropolis.native`
and the others): never silently wrong.

Standard library only, and no import of the rest of Agon: the sdist's backend runs from
the sdist's root, before anything of it is installed.

As a script: `python3 core_build.py SOURCE.c PACKAGE.MODULE FOLDER` compiles one module
into FOLDER (exit 1 with the one line where it cannot).
"""

from __future__ import annotations

import base64
import hashlib
import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

COMPILED: dict[str, str] = {
    "engine.akropolis.native._core": "engine/akropolis/native/_core.c",
    "engine.attika.native._core": "engine/attika/native/_core.c",
    "engine.megalopolis.native._core": "engine/megalopolis/native/_core.c",
}
"""The extension modules the kit builds: module name, its C source inside the sdist."""
COMPILE_FLAGS = ("-O2", "-fPIC", "-fwrapv", "-fno-strict-aliasing", "-DNDEBUG", "-Wall")
"""What setuptools passes on Linux (`CFLAGS`, `CCSHARED` and `pyproject.toml`'s `-O2`),
without debugging information: the module is a fifth of the size."""
COMPILE_SECONDS = 300
ZIP_TIME = (2024, 1, 1, 0, 0, 0)
NOTICE = (
    "{who}: the compiled cores were not built ({reason}); "
    "Akropolis, Attika and Megalopolis run in pure Python"
)


class CompileError(Exception):
    """The module could not be built here; the message is the reason, in a few words."""


@dataclass(frozen=True)
class Target:
    """The Python a module is built for: its headers, its file suffix and its wheel tag."""

    include: tuple[str, ...]
    suffix: str
    tag: str


def this_python() -> Target:
    """The running interpreter (CPython only: the core is written to its C API)."""
    if sys.implementation.name != "cpython":
        raise CompileError(f"{sys.implementation.name} is not CPython")
    paths = sysconfig.get_paths()
    include = tuple(dict.fromkeys(paths[key] for key in ("include", "platinclude")))
    if not Path(include[0], "Python.h").is_file():
        raise CompileError(f"no Python.h in {include[0]} (Debian: libpython3-dev)")
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX") or "")
    version = f"cp{sys.version_info.major}{sys.version_info.minor}"
    abi = version + ("t" if sysconfig.get_config_var("Py_GIL_DISABLED") else "")
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return Target(include, suffix, f"{version}-{abi}-{platform}")


def compiler() -> list[str]:
    """`CC` from the environment (as setuptools reads it), else the one Python was built
    with, else `cc`."""
    command = os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "") or "cc"
    return shlex.split(command)


def compile_module(source: Path, module: str, folder: Path, target: Target) -> Path:
    """Compile `source` into `folder` as the last part of `module`: the file's path."""
    if sys.platform == "win32":
        raise CompileError("no recipe for Windows' compiler")
    linking = ["-bundle", "-undefined", "dynamic_lookup"] if sys.platform == "darwin" else []
    output = folder / (module.rpartition(".")[2] + target.suffix)
    command = [
        *compiler(),
        *COMPILE_FLAGS,
        *(f"-I{path}" for path in target.include),
        *(linking or ["-shared"]),
        str(source),
        "-o",
        str(output),
    ]
    try:
        done = subprocess.run(  # noqa: S603 - the compiler named by CC or Python's build
            command, capture_output=True, text=True, timeout=COMPILE_SECONDS, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise CompileError(f"{command[0]}: {error}") from error
    if done.returncode != 0 or not output.is_file():
        lines = (done.stderr or done.stdout).strip().splitlines()
        raise CompileError(f"{command[0]} failed: {lines[-1] if lines else done.returncode}")
    return output


def build_modules(root: Path, folder: Path) -> tuple[dict[str, Path], str]:
    """Every module of COMPILED built from the sources under `root` into `folder`: the
    files by their path in the wheel, and the wheel's tag (pure where none was built, and
    then the one-line notice on standard error)."""
    built: dict[str, Path] = {}
    try:
        target = this_python()
        for module, source in COMPILED.items():
            package = module.rpartition(".")[0].replace(".", "/")
            into = folder / package  # the modules share a name (`_core`): one folder each
            into.mkdir(parents=True, exist_ok=True)
            path = compile_module(root / source, module, into, target)
            built[f"{package}/{path.name}"] = path
    except CompileError as error:
        print(NOTICE.format(who="agon-kit", reason=error), file=sys.stderr)
        return {}, "py3-none-any"
    return built, target.tag


# --- the sdist's PEP 517 backend --------------------------------------------------------
# The sdist holds the kit's packages, PKG-INFO and entry_points.txt at its root (written
# by agon.kit_wheel); a wheel is those files and the modules built here.


def get_requires_for_build_wheel(config_settings: object = None) -> list[str]:
    return []


def build_wheel(
    wheel_directory: str, config_settings: object = None, metadata_directory: object = None
) -> str:
    root = Path.cwd()
    metadata = (root / "PKG-INFO").read_text()
    fields = dict(line.split(": ", 1) for line in metadata.splitlines() if ": " in line)
    name, version = fields["Name"].replace("-", "_"), fields["Version"]
    with tempfile.TemporaryDirectory() as scratch:
        built, tag = build_modules(root, Path(scratch))
        files = [
            (path.relative_to(root).as_posix(), path.read_bytes())
            for path in sorted(root.rglob("*"))
            if path.is_file()
            and path.relative_to(root).parts[0] in package_folders(root)
            and "__pycache__" not in path.parts
        ]
        files += [(name_in_wheel, path.read_bytes()) for name_in_wheel, path in built.items()]
    dist_info = f"{name}-{version}.dist-info"
    wheel = (
        "Wheel-Version: 1.0\nGenerator: agon.core_build\n"
        f"Root-Is-Purelib: {'true' if tag == 'py3-none-any' else 'false'}\nTag: {tag}\n"
    )
    files += [
        (f"{dist_info}/METADATA", metadata.encode()),
        (f"{dist_info}/WHEEL", wheel.encode()),
        (f"{dist_info}/entry_points.txt", (root / "entry_points.txt").read_bytes()),
    ]
    filename = f"{name}-{version}-{tag}.whl"
    write_wheel(Path(wheel_directory) / filename, files, f"{dist_info}/RECORD")
    return filename


def package_folders(root: Path) -> set[str]:
    """The top-level packages of the sdist: its folders with an `__init__.py`."""
    return {path.parent.name for path in root.glob("*/__init__.py")}


def write_wheel(path: Path, files: list[tuple[str, bytes]], record_name: str) -> None:
    """A wheel of `files` with its RECORD; extension modules keep their execute bits."""
    record = "".join(f"{name},sha256={file_hash(data)},{len(data)}\n" for name, data in files)
    files = [*files, (record_name, (record + f"{record_name},,\n").encode())]
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            mode = 0o755 if name.endswith((".so", ".pyd")) else 0o644
            info.external_attr = mode << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)


def file_hash(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def main(argv: list[str]) -> int:
    """`core_build.py SOURCE.c PACKAGE.MODULE FOLDER`: one module, for this Python."""
    if len(argv) != 3:
        print("usage: core_build.py SOURCE.c PACKAGE.MODULE FOLDER", file=sys.stderr)
        return 2
    source, module, folder = Path(argv[0]), argv[1], Path(argv[2])
    folder.mkdir(parents=True, exist_ok=True)
    try:
        print(compile_module(source, module, folder, this_python()))
    except CompileError as error:
        print(NOTICE.format(who="core_build", reason=error), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
