"""Fixtures shared by the platform tests: users, API clients with tokens, the default
ladders and bots with an active version (plain helpers are in `support.py`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from rest_framework.test import APIClient

from agon.accounts.services import token_obtain, user_register
from agon.bots.models import Bot
from agon.bots.services import bot_submit
from agon.ladders.models import Ladder
from agon.ladders.services import ladder_ensure_defaults
from tests.platform.support import latest_version, pass_validation, py_upload

PASSWORD = "correct horse battery staple"  # noqa: S105 - the test users' password

MakeBot = Callable[..., Bot]


@pytest.fixture(autouse=True)
def fresh_caches() -> None:
    """No timeline of an earlier test's match, nor the kept pages of its tournament
    (SQLite gives a rolled-back id again)."""
    caches["timelines"].clear()
    caches["default"].clear()


@pytest.fixture
def ladders(db: None) -> list[Ladder]:
    """One ladder per game and player count, as a fresh installation has."""
    return ladder_ensure_defaults()


@pytest.fixture
def ladder_2p(ladders: list[Ladder]) -> Ladder:
    return Ladder.objects.get(game="akropolis", players=2)


@pytest.fixture
def alice(db: None) -> User:
    return user_register(username="alice", password=PASSWORD)


@pytest.fixture
def bob(db: None) -> User:
    return user_register(username="bob", password=PASSWORD)


@pytest.fixture
def carol(db: None) -> User:
    return user_register(username="carol", password=PASSWORD)


def client_for(user: User) -> APIClient:
    """An API client that sends the user's token, as a script would."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_obtain(user=user).key}")
    return client


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


@pytest.fixture
def alice_client(alice: User) -> APIClient:
    return client_for(alice)


@pytest.fixture
def bob_client(bob: User) -> APIClient:
    return client_for(bob)


@pytest.fixture
def make_bot(ladders: list[Ladder]) -> MakeBot:
    """Upload a bot through `bot_submit`; unless `active=False`, its first version then
    passes its validation match (finished by hand: see `support.finish_match`)."""

    def make(owner: User, name: str, game: str = "akropolis", *, active: bool = True) -> Bot:
        bot = bot_submit(owner=owner, name=name, game=game, upload=py_upload())
        if active:
            pass_validation(latest_version(bot))
        return bot

    return make
