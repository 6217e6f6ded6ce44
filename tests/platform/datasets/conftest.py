"""A game's dataset with a few real matches in it, in a media folder of the test's own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from agon.bots.models import BotVersion
from agon.ladders.models import Ladder
from agon.matches.models import Match
from tests.platform.conftest import MakeBot
from tests.platform.datasets.support import play_for_real

GAME = "architekton"


@pytest.fixture(autouse=True)
def own_media(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def ladder(ladders: list[Ladder]) -> Ladder:
    return Ladder.objects.get(game=GAME, players=2)


@pytest.fixture
def versions(make_bot: MakeBot, alice: User, bob: User) -> list[BotVersion]:
    bots = [make_bot(alice, "a", GAME), make_bot(bob, "b", GAME)]
    return [BotVersion.objects.get(bot=bot, status=BotVersion.Status.ACTIVE) for bot in bots]


@pytest.fixture
def played(ladder: Ladder, versions: list[BotVersion]) -> list[Match]:
    """Three ranked matches, finished."""
    return [play_for_real(ladder, versions, seed=seed) for seed in (1, 2, 3)]
