"""The three locks agree: `make run` installs requirements-run.lock, `make test` all of
requirements.lock, so the platform runs on the same packages in both, byte for byte."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==(\S+)")
HASH = re.compile(r"--hash=(sha256:[0-9a-f]{64})")


def pins(lock: str) -> dict[str, tuple[str, frozenset[str]]]:
    """Package name (normalised) -> (version, hashes) of a pip-compile lock."""
    found: dict[str, tuple[str, set[str]]] = {}
    current = ""
    for line in (REPO_DIR / lock).read_text().splitlines():
        if match := PIN.match(line):
            current = re.sub(r"[-_.]+", "-", match[1]).lower()
            found[current] = (match[2], set())
        found_hashes = HASH.findall(line)
        if found_hashes:
            found[current][1].update(found_hashes)
    return {name: (version, frozenset(hashes)) for name, (version, hashes) in found.items()}


def requirement_names(requirements: list[str]) -> set[str]:
    return {re.sub(r"[-_.]+", "-", re.split(r"[\[=<>~ ]", r)[0]).lower() for r in requirements}


PROJECT = tomllib.loads((REPO_DIR / "pyproject.toml").read_text())["project"]


def test_the_platform_lock_pins_what_the_whole_lock_pins_with_the_same_hashes() -> None:
    whole, platform = pins("requirements.lock"), pins("requirements-run.lock")
    assert platform, "requirements-run.lock pins nothing"
    differing = {name: pin for name, pin in platform.items() if whole.get(name) != pin}
    assert not differing


def test_the_platform_lock_holds_the_runtime_requirements_and_no_tool() -> None:
    platform = pins("requirements-run.lock")
    assert requirement_names(PROJECT["dependencies"]) <= set(platform)
    tools = requirement_names(PROJECT["optional-dependencies"]["dev"])
    assert not tools & set(platform), "a development tool in the platform's lock"


def test_every_lock_is_fully_hashed() -> None:
    for lock in ("requirements.lock", "requirements-run.lock", "requirements-uv.lock"):
        assert all(hashes for _, hashes in pins(lock).values()), lock
    assert set(pins("requirements-uv.lock")) == {"uv"}


def test_the_whole_lock_installs_the_training_environments_and_the_platform_lock_does_not() -> None:
    envs = requirement_names(PROJECT["optional-dependencies"]["envs"])
    assert envs == {"gymnasium", "numpy", "pettingzoo"}
    assert envs <= set(pins("requirements.lock")), "`make venv` must install agon_bot.envs' needs"
    assert not envs & set(pins("requirements-run.lock")), "the platform does not need them"
