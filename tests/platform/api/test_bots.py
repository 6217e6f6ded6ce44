"""Bots: the public directory, one bot, uploads of bots and versions, downloads."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.contrib.auth.models import User
from pytest_django import DjangoCaptureOnCommitCallbacks
from rest_framework.test import APIClient

from agon.api.bots import BotDetailSerializer, BotSummarySerializer
from agon.bots.models import Bot, BotVersion
from agon.bots.retirement import bot_retire
from agon.bots.selectors import bot_get
from agon.matches.models import Match
from competition import ratings
from tests.platform.conftest import MakeBot
from tests.platform.support import BOT_SOURCE, fail_validation, latest_version, py_upload

pytestmark = pytest.mark.django_db


# --- the list ---------------------------------------------------------------------------


def test_anybody_lists_every_bot_with_its_owner_and_active_version(
    anonymous: APIClient, make_bot: MakeBot, alice: User, bob: User
) -> None:
    first = make_bot(alice, "first")
    pending = make_bot(bob, "pending", active=False)

    response = anonymous.get("/api/bots/")

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2
    assert [
        {key: bot[key] for key in ("id", "name", "owner", "game", "active_version")}
        for bot in body["results"]
    ] == [
        {
            "id": first.id,
            "name": "first",
            "owner": "alice",
            "game": "akropolis",
            "active_version": 1,
        },
        {
            "id": pending.id,
            "name": "pending",
            "owner": "bob",
            "game": "akropolis",
            "active_version": None,
        },
    ]
    assert all(bot["created"] for bot in body["results"])


def test_listed_bots_read_as_rows_give_the_serializers_json(
    anonymous: APIClient, make_bot: MakeBot, alice: User, bob: User
) -> None:
    """The list is read as plain rows and written field by field: the JSON of
    BotSummarySerializer, a retired bot's and one without an active version too."""
    make_bot(alice, "first")
    make_bot(bob, "pending", active=False)
    retired = make_bot(bob, "old")
    bot_retire(bot=retired)
    models = [bot_get(bot_id=bot.id) or bot for bot in Bot.objects.order_by("id")]

    listed = anonymous.get("/api/bots/").json()["results"]

    assert listed == list(BotSummarySerializer(models, many=True).data)
    assert [bot["retired"] is not None for bot in listed] == [False, False, True]


def test_it_filters_the_bots_by_owner(
    anonymous: APIClient, make_bot: MakeBot, alice: User, bob: User
) -> None:
    make_bot(alice, "a1")
    make_bot(bob, "b1")
    make_bot(alice, "a2")

    names = [bot["name"] for bot in anonymous.get("/api/bots/?owner=alice").json()["results"]]

    assert names == ["a1", "a2"]
    assert anonymous.get("/api/bots/?owner=nobody").json()["count"] == 0


def test_it_filters_the_bots_by_game(anonymous: APIClient, make_bot: MakeBot, alice: User) -> None:
    make_bot(alice, "a1")

    assert anonymous.get("/api/bots/?game=akropolis").json()["count"] == 1


def test_it_refuses_to_filter_by_an_unknown_game(anonymous: APIClient) -> None:
    response = anonymous.get("/api/bots/?game=chess")

    assert response.status_code == 400
    assert response.json()["error"] == 'game: "chess" is not a valid choice.'


def test_it_lists_bots_in_pages(anonymous: APIClient, make_bot: MakeBot, alice: User) -> None:
    for i in range(5):
        make_bot(alice, f"bot{i}", active=False)

    first = anonymous.get("/api/bots/?page_size=2").json()
    last = anonymous.get("/api/bots/?page_size=2&page=3").json()

    assert first["count"] == 5
    assert [bot["name"] for bot in first["results"]] == ["bot0", "bot1"]
    assert first["next"].endswith("/api/bots/?page=2&page_size=2")
    assert first["previous"] is None
    assert [bot["name"] for bot in last["results"]] == ["bot4"]
    assert last["next"] is None


# --- one bot ------------------------------------------------------------------------------


def test_a_bot_shows_its_versions_and_its_ratings_on_each_ladder(
    anonymous: APIClient, make_bot: MakeBot, alice: User
) -> None:
    bot = make_bot(alice, "steady")

    response = anonymous.get(f"/api/bots/{bot.id}/")

    assert response.status_code == 200
    body = response.json()
    assert body["name"] == "steady"
    assert body["owner"] == "alice"
    assert body["active_version"] == 1
    [version] = body["versions"]
    assert version["number"] == 1
    assert version["status"] == "active"
    assert version["sha256"] == hashlib.sha256(BOT_SOURCE).hexdigest()
    ladders = {rating["ladder_name"]: rating for rating in body["ratings"]}
    assert sorted(ladders) == ["Akropolis 2p", "Akropolis 3p", "Akropolis 4p"]
    start = ratings.initial()
    assert ladders["Akropolis 2p"]["rating"] == start.value
    assert ladders["Akropolis 2p"]["deviation"] == start.deviation
    assert ladders["Akropolis 2p"]["display"] == ratings.display(start)
    assert ladders["Akropolis 2p"]["games"] == 0
    assert ladders["Akropolis 2p"]["wins"] == 0
    assert ladders["Akropolis 2p"]["provisional"] is True


def test_a_bot_written_field_by_field_is_what_the_detail_serializer_writes(
    anonymous: APIClient, alice_client: APIClient, make_bot: MakeBot, alice: User, bob: User
) -> None:
    """The detail is written without the serializers: the same JSON for its owner and for
    anybody, for a bot with a rejected and a paused version, a retired one and one whose
    first version is still being validated."""
    crasher = make_bot(alice, "crasher", active=False)
    fail_validation(latest_version(crasher), fault="crash")
    steady = make_bot(alice, "steady")
    BotVersion.objects.filter(bot=steady).update(paused_reason="faulted in 5 of its last 10")
    bot_retire(bot=make_bot(alice, "old"))
    make_bot(bob, "pending", active=False)

    for bot in Bot.objects.order_by("id"):
        for client in (anonymous, alice_client):
            request = client.get(f"/api/bots/{bot.id}/").wsgi_request
            model = bot_get(bot_id=bot.id)
            expected = BotDetailSerializer(model, context={"request": request}).data
            assert client.get(f"/api/bots/{bot.id}/").json() == json.loads(json.dumps(expected))
    assert Bot.objects.count() == 4


def test_only_the_owner_sees_why_a_version_was_rejected(
    anonymous: APIClient,
    alice_client: APIClient,
    bob_client: APIClient,
    make_bot: MakeBot,
    alice: User,
) -> None:
    bot = make_bot(alice, "crasher", active=False)
    fail_validation(latest_version(bot), fault="crash")

    seen_by_owner = alice_client.get(f"/api/bots/{bot.id}/").json()["versions"][0]
    seen_by_other = bob_client.get(f"/api/bots/{bot.id}/").json()["versions"][0]
    seen_by_anybody = anonymous.get(f"/api/bots/{bot.id}/").json()["versions"][0]

    assert seen_by_owner["status"] == "rejected"
    assert (
        seen_by_owner["reason"]
        == "crash on its 1st move (game turn 1): a crash made up by the test"
    )
    assert seen_by_other["status"] == seen_by_anybody["status"] == "rejected"
    assert seen_by_other["reason"] is None
    assert seen_by_anybody["reason"] is None


def test_an_unknown_bot_is_404(anonymous: APIClient) -> None:
    response = anonymous.get("/api/bots/999999/")

    assert response.status_code == 404
    assert response.json()["error"] == "there is no bot 999999"


# --- uploading a bot ------------------------------------------------------------------------


def test_a_signed_in_user_uploads_a_bot(
    alice_client: APIClient,
    alice: User,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        response = alice_client.post(
            "/api/bots/", {"name": "first", "game": "akropolis", "file": py_upload("bot.py")}
        )

    assert response.status_code == 201
    bot = Bot.objects.get(owner=alice, name="first")
    body = response.json()
    assert body["id"] == bot.id
    assert body["active_version"] is None
    assert [(v["number"], v["status"], v["filename"]) for v in body["versions"]] == [
        (1, "validating", "bot.py")
    ]
    assert body["versions"][0]["reason"] == ""  # the owner sees reasons: none yet
    version = bot.versions.get()
    assert version.archive.read() == BOT_SOURCE
    validation = Match.objects.get(kind=Match.Kind.VALIDATION, seats__version=version)
    assert validation.status == Match.Status.QUEUED
    assert len(callbacks) == 1  # the validation match's task, sent once the upload commits


def test_a_new_version_is_uploaded_by_the_owner(
    alice_client: APIClient, make_bot: MakeBot, alice: User
) -> None:
    bot = make_bot(alice, "improving")

    response = alice_client.post(f"/api/bots/{bot.id}/versions/", {"file": py_upload()})

    assert response.status_code == 201
    body = response.json()
    assert body["number"] == 2
    assert body["status"] == "validating"
    assert bot.versions.count() == 2
    assert Match.objects.filter(kind=Match.Kind.VALIDATION, seats__version__bot=bot).count() == 2


def test_the_active_version_plays_on_until_the_new_one_passes_validation(
    anonymous: APIClient, alice_client: APIClient, make_bot: MakeBot, alice: User
) -> None:
    bot = make_bot(alice, "improving")
    alice_client.post(f"/api/bots/{bot.id}/versions/", {"file": py_upload()})

    assert anonymous.get(f"/api/bots/{bot.id}/").json()["active_version"] == 1


def test_another_user_cannot_upload_a_version_of_your_bot(
    bob_client: APIClient, make_bot: MakeBot, alice: User
) -> None:
    bot = make_bot(alice, "mine")

    response = bob_client.post(f"/api/bots/{bot.id}/versions/", {"file": py_upload()})

    assert response.status_code == 403
    assert response.json()["error"] == "only the owner of this bot may do this"
    assert bot.versions.count() == 1


def test_anonymous_users_cannot_upload(
    anonymous: APIClient, make_bot: MakeBot, alice: User
) -> None:
    bot = make_bot(alice, "mine")

    new_bot = anonymous.post("/api/bots/", {"name": "x", "game": "akropolis", "file": py_upload()})
    new_version = anonymous.post(f"/api/bots/{bot.id}/versions/", {"file": py_upload()})

    assert new_bot.status_code == new_version.status_code == 401
    assert new_bot.json()["error"] == "Authentication credentials were not provided."
    assert Bot.objects.count() == 1
    assert BotVersion.objects.count() == 1


def test_a_version_of_an_unknown_bot_is_404(alice_client: APIClient) -> None:
    response = alice_client.post("/api/bots/999999/versions/", {"file": py_upload()})

    assert response.status_code == 404


# --- downloading a version ------------------------------------------------------------------


def test_the_owner_downloads_a_version_as_uploaded(alice_client: APIClient, alice: User) -> None:
    alice_client.post(
        "/api/bots/", {"name": "mine", "game": "akropolis", "file": py_upload("bot.py")}
    )
    bot = Bot.objects.get(name="mine")

    response = alice_client.get(f"/api/bots/{bot.id}/versions/1/download/")

    assert response.status_code == 200
    assert b"".join(response.streaming_content) == BOT_SOURCE  # type: ignore[attr-defined]
    assert response["Content-Disposition"] == 'attachment; filename="bot.py"'


def test_the_download_ignores_what_the_client_says_it_accepts(
    alice_client: APIClient, make_bot: MakeBot, alice: User
) -> None:
    bot = make_bot(alice, "mine")

    response = alice_client.get(
        f"/api/bots/{bot.id}/versions/1/download/", HTTP_ACCEPT="application/zip"
    )

    assert response.status_code == 200


def test_nobody_else_can_download_a_version(
    bob_client: APIClient, anonymous: APIClient, make_bot: MakeBot, alice: User
) -> None:
    bot = make_bot(alice, "secret")

    by_other = bob_client.get(f"/api/bots/{bot.id}/versions/1/download/")
    by_anybody = anonymous.get(f"/api/bots/{bot.id}/versions/1/download/")

    assert by_other.status_code == 404
    assert by_other.json()["error"] == f"you have no bot {bot.id} with a version 1"
    assert by_anybody.status_code == 401


def test_a_version_that_does_not_exist_is_404(
    alice_client: APIClient, make_bot: MakeBot, alice: User
) -> None:
    bot = make_bot(alice, "mine")

    assert alice_client.get(f"/api/bots/{bot.id}/versions/2/download/").status_code == 404
