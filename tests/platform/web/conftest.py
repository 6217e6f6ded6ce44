"""Fixtures of the web tests: uploads and replays in a temporary folder, a fresh cache,
and a small world of bots and finished matches."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from pytest_django import Settings

from agon.bots.models import Bot, BotVersion
from agon.ladders.models import Ladder
from agon.matches.models import Match
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.support import ranked_match
from tests.platform.web.support import play_and_finish


@pytest.fixture(autouse=True)
def media_root(settings: Settings, tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "media"
    settings.MEDIA_ROOT = folder
    settings.AGON_WORK_DIR = tmp_path / "work"
    cache.clear()
    yield folder
    cache.clear()


@pytest.fixture
def alice_browser(alice: User) -> Client:
    client = Client()
    assert client.login(username="alice", password=PASSWORD)
    return client


@dataclass
class World:
    ladder: Ladder
    bots: list[Bot]
    match: Match
    """A finished ranked 2-player Akropolis match between alice's and bob's bots."""

    @property
    def versions(self) -> list[BotVersion]:
        return [bot.versions.get(status="active") for bot in self.bots]


@pytest.fixture
def world(ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User) -> World:
    bots = [make_bot(alice, "athena"), make_bot(bob, "hermes")]
    versions = [bot.versions.get(status="active") for bot in bots]
    match = play_and_finish(
        ranked_match(ladder_2p, versions, seed=17), logs={0: "athena thinks\n", 1: "hermes\n"}
    )
    return World(ladder_2p, bots, match)
