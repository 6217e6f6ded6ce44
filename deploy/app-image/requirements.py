"""The application image's share of requirements.lock, for deploy/build-images.sh.

The lock pins the runtime and the development dependencies together (one `pip-compile
--extra dev`). The image wants the runtime ones only, still checked against the lock's
hashes, so the build script:

1. `direct`: prints the project's runtime requirements (pyproject.toml, [project]);
2. `constraints`: prints the lock's pins without hashes, for `pip download -c`, which
   then resolves those requirements to exactly the locked versions, wheels only, for
   the image's platform;
3. `missing WHEELS`: prints what those wheels still need on the oldest Python 3.11 an
   image has (Debian bookworm's 3.11.2; pip judged the markers for the host's Python),
   for a second download;
4. `select WHEELS`: prints the lock's entries (pins and hashes) of the distributions
   whose wheels step 2 left in the folder WHEELS: the image installs exactly them
   (`--no-deps --require-hashes`), so a wheel that is not the one the lock names is
   refused. A wheel the lock lacks (a backport that only an older Python 3.11 needs)
   is pinned by the hash of the downloaded file, and named on stderr.

Standard library and pip's own copy of `packaging`: it runs with the host's python3
(with pip) before any virtualenv exists.
"""

from __future__ import annotations

import hashlib
import re
import sys
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

# pip evaluates a dependency's environment markers for the Python that runs it, not for
# `--python-version`; the walk below evaluates them for the oldest Python an image has.
from pip._vendor.packaging.markers import Marker
from pip._vendor.packaging.requirements import Requirement

REPO_DIR = Path(__file__).resolve().parents[2]
LOCK = REPO_DIR / "requirements.lock"
PYPROJECT = REPO_DIR / "pyproject.toml"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")
OLDEST_PYTHON = "3.11.2"
"""Debian bookworm's python3, the local base's; the public base has a later 3.11."""


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_entries() -> dict[str, list[str]]:
    """Each pinned distribution of the lock -> its lines (pin, hashes; no comments)."""
    entries: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in LOCK.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0].isspace():
            if current is None:
                raise SystemExit(f"requirements.py: an indented line before any pin: {line!r}")
            current.append(line)
            continue
        match = PIN.match(line)
        if match is None:
            raise SystemExit(f"requirements.py: not a pinned requirement: {line!r}")
        current = entries[normalized(match.group(1))] = [line]
    return entries


def direct() -> list[str]:
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    return [str(requirement) for requirement in project["dependencies"]]


def constraints() -> list[str]:
    lines = []
    for entry in lock_entries().values():
        match = PIN.match(entry[0])
        assert match is not None  # noqa: S101 - lock_entries only keeps pins
        lines.append(f"{match.group(1)}=={match.group(2)}")
    return lines


def wheels(folder: Path) -> dict[str, Path]:
    """Distribution name -> wheel file, for the wheels in `folder`."""
    return {normalized(wheel.name.split("-", 1)[0]): wheel for wheel in folder.glob("*.whl")}


def select(folder: Path) -> list[str]:
    entries = lock_entries()
    found = wheels(folder)
    if not found:
        raise SystemExit(f"requirements.py: no wheel in {folder}")
    lines = []
    for name in sorted(found.keys() & entries.keys()):
        lines += entries[name]
        # Continuation backslashes: the last hash line of an entry must not carry one.
        lines[-1] = lines[-1].rstrip(" \\")
    # The lock was resolved on the development Python (3.11.3 or later). On an earlier
    # 3.11 (Debian bookworm's 3.11.2) a marker adds a backport the lock lacks: redis
    # imports async-timeout there. Such a wheel is pinned by the hash of the file pip
    # downloaded (pip checked it against the index), and named on stderr.
    extra = sorted(found.keys() - entries.keys())
    for name in extra:
        wheel = found[name]
        version = wheel.name.split("-")[1]
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        lines += [
            "# not in requirements.lock: needed by Python < 3.11.3 (hash of the download)",
            f"{name}=={version} --hash=sha256:{digest}",
        ]
    if extra:
        print(
            f"requirements.py: not in requirements.lock, pinned by the downloaded file: "
            f"{', '.join(extra)}",
            file=sys.stderr,
        )
    return lines


def requires(wheel: Path) -> list[Requirement]:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(name).decode())
    return [Requirement(line) for line in metadata.get_all("Requires-Dist") or []]


def missing(folder: Path) -> list[str]:
    """Requirements that the wheels in `folder` have on Linux with OLDEST_PYTHON (the
    project's own requirements first, with their extras) and that no wheel there meets."""
    found = wheels(folder)
    environment = {
        "python_version": OLDEST_PYTHON.rsplit(".", 1)[0],
        "python_full_version": OLDEST_PYTHON,
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "sys_platform": "linux",
        "platform_system": "Linux",
        "os_name": "posix",
    }
    queue = [Requirement(text) for text in direct()]
    seen: set[tuple[str, frozenset[str]]] = set()
    wanted: list[str] = []
    while queue:
        requirement = queue.pop(0)
        name = normalized(requirement.name)
        key = (name, frozenset(requirement.extras))
        if key in seen:
            continue
        seen.add(key)
        wheel = found.get(name)
        if wheel is None:
            wanted.append(str(requirement).split(";", 1)[0].strip())
            continue
        for dependency in requires(wheel):
            marker: Marker | None = dependency.marker
            extras = requirement.extras or {""}
            if marker is None or any(
                marker.evaluate({**environment, "extra": extra}) for extra in extras
            ):
                queue.append(dependency)
    return wanted


def main(argv: list[str]) -> int:
    if argv[:1] == ["direct"] and len(argv) == 1:
        print("\n".join(direct()))
    elif argv[:1] == ["constraints"] and len(argv) == 1:
        print("\n".join(constraints()))
    elif argv[:1] == ["missing"] and len(argv) == 2:
        print("\n".join(missing(Path(argv[1]))))
    elif argv[:1] == ["select"] and len(argv) == 2:
        print("\n".join(select(Path(argv[1]))))
    else:
        print(__doc__.strip(), file=sys.stderr)
        print(
            "\nusage: requirements.py direct | constraints | missing WHEELS | select WHEELS",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
