"""Fixtures for the sandbox tests: an `Arena` per test and backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.sandbox.support import BOXED_BACKENDS, Arena, record_cgroups, require_backend


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
