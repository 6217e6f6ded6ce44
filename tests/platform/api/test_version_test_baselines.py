"""What a version test may be measured against besides builtins and the bot's own
versions: another of the owner's bots, or another user's bot its owner opened to other
users' events (a public bot). A private bot is never played for anybody else, and a
request naming one learns no more than one naming no bot at all.

These run on SQLite too (tests/platform/test_private_events_on_sqlite.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from agon.bots.models import Bot
from agon.bots.retirement import bot_retire
from agon.matches.models import Match
from agon.version_testing.models import VersionTest
from tests.platform.conftest import MakeBot
from tests.platform.version_testing.support import bot_with_two_versions, queued_games

pytestmark = pytest.mark.django_db


@pytest.fixture
def hero(make_bot: MakeBot, alice: User) -> Bot:
    return bot_with_two_versions(make_bot, alice)


def against(client: APIClient, bot: Bot, baseline_bot: int) -> tuple[int, dict[str, object]]:
    response = client.post(
        f"/api/bots/{bot.id}/tests/",
        {"candidate": 2, "baseline_bot": baseline_bot, "max_games": 20},
        format="json",
    )
    return response.status_code, response.json()


def test_another_users_public_bot_is_a_baseline(
    hero: Bot, make_bot: MakeBot, bob: User, alice_client: APIClient
) -> None:
    public = make_bot(bob, "open")
    public.open_to_events = True
    public.save()

    status, body = against(alice_client, hero, public.id)

    assert status == 201, body
    assert body["baseline"] == {
        "bot_label": "bob/open@v1",
        "bot": public.id,
        "version": 1,
        "builtin": None,
    }
    first = queued_games(VersionTest.objects.get())[0]
    assert {seat.version.bot_id for seat in first.seats.all() if seat.version} == {
        hero.id,
        public.id,
    }


def test_another_of_ones_own_bots_is_a_baseline_public_or_not(
    hero: Bot, make_bot: MakeBot, alice: User, alice_client: APIClient
) -> None:
    mine = make_bot(alice, "sparring")

    assert against(alice_client, hero, mine.id)[0] == 201


def test_a_private_bot_is_refused_as_if_it_did_not_exist(
    hero: Bot, make_bot: MakeBot, bob: User, alice_client: APIClient
) -> None:
    private = make_bot(bob, "secret sauce")
    other_game = make_bot(bob, "elsewhere", game="attika")
    other_game.open_to_events = True
    other_game.save()
    missing = other_game.id + 1000

    answers = [against(alice_client, hero, bot_id) for bot_id in (private.id, missing)]

    statuses = [status for status, _ in answers]
    errors = [
        str(body["error"]).replace(str(bot_id), "N")
        for (_, body), bot_id in zip(answers, (private.id, missing), strict=True)
    ]
    assert statuses == [400, 400]
    assert (
        errors[0]
        == errors[1]
        == (
            "there is no public Akropolis bot N to test against: name one of your bots, or "
            "another user's that its owner opened to other users' events"
        )
    )
    refused_elsewhere = against(alice_client, hero, other_game.id)[1]["error"]
    assert refused_elsewhere == errors[0].replace("N", str(other_game.id))
    for _, body in answers:
        assert "secret" not in str(body) and "v1" not in str(body) and "bob" not in str(body)
    assert not VersionTest.objects.exists()
    assert not Match.objects.filter(kind=Match.Kind.VERSION_TEST).exists()


def test_another_users_retired_bot_is_refused(
    hero: Bot, make_bot: MakeBot, bob: User, alice_client: APIClient
) -> None:
    public = make_bot(bob, "open")
    public.open_to_events = True
    public.save()
    bot_retire(bot=public)

    status, body = against(alice_client, hero, public.id)

    assert status == 400
    assert body["error"] == "the bot 'open' is retired: it plays no new test"
