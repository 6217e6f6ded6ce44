"""Every game's compiled core is loaded the same way (`engine.compiled_core`): pure Python
when asked for, silently; one warning line, then pure Python, when the core is missing,
stale or refuses the engine's tables."""

from __future__ import annotations

import importlib
import logging
import sys
from types import ModuleType, SimpleNamespace

import pytest

from engine.compiled_core import PURE_PYTHON_VARIABLE

CORES = {
    "Akropolis": "engine.akropolis.native",
    "Attika": "engine.attika.native",
    "Megalopolis": "engine.megalopolis.native",
}


@pytest.fixture(params=sorted(CORES))
def game(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def native(game: str) -> ModuleType:
    return importlib.import_module(CORES[game])


def test_every_game_s_core_is_built_and_in_use_here(
    native: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    assert native.PURE_PYTHON_VARIABLE == PURE_PYTHON_VARIABLE
    assert native.load_core() is not None  # `make venv` builds every core


def test_pure_python_can_be_forced_silently(
    native: ModuleType, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    with caplog.at_level(logging.WARNING):
        assert native.load_core() is None
    assert caplog.records == []


def test_a_core_that_does_not_import_means_pure_python_and_one_warning(
    game: str,
    native: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    monkeypatch.setitem(sys.modules, f"{CORES[game]}._core", None)
    with caplog.at_level(logging.WARNING):
        assert native.load_core() is None
    [record] = caplog.records
    assert record.name == CORES[game]
    assert record.getMessage().startswith(f"{game}: compiled core not available")
    assert f"{CORES[game]}._core" in record.getMessage()
    assert "\n" not in record.getMessage()


@pytest.mark.parametrize("broken", ["stale", "bad tables"])
def test_a_stale_or_broken_core_is_not_used(
    game: str,
    native: ModuleType,
    broken: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def refuse(*tables: object) -> None:
        raise ValueError("core tables: out of shape")

    fake = SimpleNamespace(VERSION=native.CORE_VERSION, setup=refuse)
    if broken == "stale":
        fake.VERSION = native.CORE_VERSION - 1
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    monkeypatch.setitem(sys.modules, f"{CORES[game]}._core", fake)
    with caplog.at_level(logging.WARNING):
        assert native.load_core() is None
    [record] = caplog.records
    assert record.getMessage().startswith(f"{game}: compiled core")
    assert "using pure Python" in record.getMessage()
    assert ("is version" in record.getMessage()) == (broken == "stale")
