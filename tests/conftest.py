"""Checks the whole suite shares, the tests' own fifth game (tests/games/nim) and fifth
tournament format (tests/competition/formats/toy.py)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from competition.formats import registry as formats
from engine.registry import EXTRA_GAMES_VARIABLE, get_spec
from engine.spec import GameSpec
from tests.competition.formats import toy
from tests.required import required_parts

NIM_REGISTRY_LINE = "nim=tests.games.nim.spec:SPEC"

# Hypothesis' clocks (a deadline per example, "too slow" to generate) measure the machine,
# not the code: on a loaded CI machine they fail tests whose properties hold. A test that
# is about time measures it itself.
settings.register_profile("agon", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("agon")


def pytest_configure(config: pytest.Config) -> None:
    required_parts()  # a misspelt AGON_TEST_REQUIRE stops the run at start


@pytest.fixture
def nim(monkeypatch: pytest.MonkeyPatch) -> GameSpec[Any]:
    """Nim registered, with its one registry line, for this test and the processes it
    starts (workers inherit the environment)."""
    monkeypatch.setenv(EXTRA_GAMES_VARIABLE, NIM_REGISTRY_LINE)
    return get_spec("nim")


@pytest.fixture
def one_round(monkeypatch: pytest.MonkeyPatch) -> str:
    """The tests' fifth tournament format registered, with its one registry line, for
    this test (in this process): its name."""
    monkeypatch.setitem(formats._FORMATS, toy.NAME, toy.REGISTRY_LINE)
    return toy.NAME


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The run's end (in the process that ran the session, xdist's controller if any):
    the acceptance suite's platforms stop, whichever worker started them."""
    if hasattr(session.config, "workerinput"):
        return
    from tests.acceptance.platforms import stop_shared_platforms

    stop_shared_platforms(session.config)
