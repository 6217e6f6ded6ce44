"""The analysis's tests: mcts-1 with few playouts (the same code, a fraction of the
time), replays in their own media folder; two Architekton bots of two owners, their
ladder, and the match ids sent to the analysis queue."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from agon.analysis import services
from agon.bots.models import BotVersion
from agon.ladders.models import Ladder
from engine.search.analysis import LEVELS
from tests.platform.conftest import MakeBot

GAME = "architekton"


@pytest.fixture(autouse=True)
def tiny_level(monkeypatch: pytest.MonkeyPatch) -> None:
    small = dataclasses.replace(LEVELS["mcts-1"], iterations=8, candidates=4)
    monkeypatch.setitem(LEVELS, "mcts-1", small)


@pytest.fixture(autouse=True)
def own_media(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def versions(make_bot: MakeBot, alice: User, bob: User) -> list[BotVersion]:
    bots = [make_bot(alice, "a", GAME), make_bot(bob, "b", GAME)]
    return [BotVersion.objects.get(bot=bot, status=BotVersion.Status.ACTIVE) for bot in bots]


@pytest.fixture
def ladder(ladders: list[Ladder]) -> Ladder:
    return Ladder.objects.get(game=GAME, players=2)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The match ids sent to the analysis queue (the messages, not a worker)."""
    found: list[int] = []
    monkeypatch.setattr(services, "_send", found.extend)
    return found
