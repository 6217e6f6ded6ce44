"""Fixtures for the sandbox tests: an `Arena` per test and backend."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.required import missing
from tests.sandbox.support import BOXED_BACKENDS, Arena, record_cgroups, require_backend

LAUNCHER_SOURCE = Path(__file__).resolve().parents[2] / "sandbox" / "box_launch.c"


def make_arena(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Arena:
    require_backend(name)
    workdir = tmp_path / "work"
    workdir.mkdir()
    arena = Arena(backend_name=name, workdir=workdir)
    record_cgroups(monkeypatch, arena.cgroups)
    return arena


@pytest.fixture(params=BOXED_BACKENDS)
def boxed_arena(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Arena:
    """An arena on each backend that isolates bots (skipped where one is missing, unless
    required: tests.required)."""
    return make_arena(request.param, tmp_path, monkeypatch)


@pytest.fixture(params=("none", *BOXED_BACKENDS))
def any_arena(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Arena:
    """An arena on every backend, `none` included: for what needs no isolation."""
    return make_arena(request.param, tmp_path, monkeypatch)


@pytest.fixture(scope="session")
def box_launcher(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Docker box's launcher (sandbox/box_launch.c) built with this machine's compiler,
    as the bot image builds it (but not static: the host need not have libc.a)."""
    compiler = shutil.which(os.environ.get("CC") or "cc")
    if compiler is None:
        missing("compiled-core", "no C compiler here to build sandbox/box_launch.c")
    built = tmp_path_factory.mktemp("launcher") / "box-launch"
    subprocess.run(  # noqa: S603 - a fixed argv
        [compiler, "-O2", "-Wall", "-Werror", "-o", str(built), str(LAUNCHER_SOURCE)],
        check=True,
    )
    return built
