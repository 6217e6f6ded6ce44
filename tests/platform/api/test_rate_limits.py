"""Rate limits of the API: sign-ups per address, failed sign-ins per username and per
address, uploads per user; a refusal is 429 with Retry-After and a JSON error."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from pytest_django import Settings
from rest_framework.test import APIClient

from agon.bots.models import Bot
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.support import py_upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def low_limits(settings: Settings) -> None:
    settings.AGON_RATE_LIMITS = {
        "signup": "3/hour",
        "signin-username": "3/15minute",
        "signin-address": "5/15minute",
        "upload": "2/hour",
        "challenge": "2/hour",
    }


def register(client: APIClient, username: str, address: str = "10.0.0.1") -> int:
    response = client.post(
        "/api/auth/register/",
        {"username": username, "password": PASSWORD},
        format="json",
        REMOTE_ADDR=address,
    )
    return response.status_code


def token(client: APIClient, username: str, password: str, address: str = "10.0.0.1") -> int:
    response = client.post(
        "/api/auth/token/",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
    )
    return response.status_code


@pytest.mark.usefixtures("low_limits")
def test_it_refuses_sign_ups_past_the_limit_of_an_address(anonymous: APIClient) -> None:
    statuses = [register(anonymous, f"user{n}") for n in range(5)]
    refused = anonymous.post(
        "/api/auth/register/", {"username": "late", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
    )

    assert statuses == [201, 201, 201, 429, 429]
    assert refused.status_code == 429
    assert refused["Content-Type"] == "application/json"
    assert refused["Retry-After"] == "3600"
    assert refused.json() == {
        "error": "too many sign-ups from your address: try again in 60 minutes",
        "detail": {"detail": "too many sign-ups from your address: try again in 60 minutes"},
    }
    assert register(anonymous, "elsewhere", address="10.0.0.2") == 201
    assert User.objects.count() == 4


@pytest.mark.usefixtures("low_limits")
def test_it_counts_failed_sign_ins_per_username(anonymous: APIClient, alice: User) -> None:
    wrong = [token(anonymous, "alice", "wrong password", address=f"10.0.1.{n}") for n in range(4)]

    assert wrong == [400, 400, 400, 429]
    # Even the right password waits: the username is under attack.
    assert token(anonymous, "ALICE", PASSWORD, address="10.0.2.1") == 429
    assert token(anonymous, "bob", "wrong password") == 400


@pytest.mark.usefixtures("low_limits")
def test_it_counts_failed_sign_ins_per_address(anonymous: APIClient, alice: User) -> None:
    statuses = [token(anonymous, f"nobody{n}", "wrong password") for n in range(6)]

    assert statuses == [400] * 5 + [429]
    assert token(anonymous, "alice", PASSWORD, address="10.0.0.9") == 200


@pytest.mark.usefixtures("low_limits")
def test_a_right_password_does_not_count(anonymous: APIClient, alice: User) -> None:
    statuses = [token(anonymous, "alice", PASSWORD) for _ in range(10)]

    assert statuses == [200] * 10
    assert [token(anonymous, "alice", "wrong password") for _ in range(4)] == [400] * 3 + [429]


@pytest.mark.usefixtures("low_limits")
def test_it_counts_the_address_the_proxy_saw(anonymous: APIClient, settings: Settings) -> None:
    settings.AGON_PROXY_COUNT = 1
    statuses = [
        anonymous.post(
            "/api/auth/register/",
            {"username": f"user{n}", "password": PASSWORD},
            format="json",
            # What a client writes itself comes first; the proxy adds what it saw.
            HTTP_X_FORWARDED_FOR=f"1.2.3.{n}, 203.0.113.7",
        ).status_code
        for n in range(4)
    ]

    assert statuses == [201, 201, 201, 429]


@pytest.mark.usefixtures("low_limits")
def test_it_refuses_uploads_past_the_limit_of_a_user(
    alice_client: APIClient, bob_client: APIClient, make_bot: MakeBot, alice: User
) -> None:
    bot = make_bot(alice, "first")
    first = alice_client.post(
        "/api/bots/", {"name": "second", "game": "akropolis", "file": py_upload()}
    )
    version = alice_client.post(f"/api/bots/{bot.id}/versions/", {"file": py_upload()})
    refused = alice_client.post(
        "/api/bots/", {"name": "third", "game": "akropolis", "file": py_upload()}
    )
    refused_version = alice_client.post(f"/api/bots/{bot.id}/versions/", {"file": py_upload()})

    assert (first.status_code, version.status_code) == (201, 201)
    assert (refused.status_code, refused_version.status_code) == (429, 429)
    assert refused.json()["error"] == "too many uploads: try again in 60 minutes"
    assert refused["Retry-After"] == "3600"
    assert Bot.objects.filter(owner=alice).count() == 2
    assert alice_client.get("/api/bots/").status_code == 200  # reading is not limited
    bob_upload = bob_client.post(
        "/api/bots/", {"name": "b", "game": "akropolis", "file": py_upload()}
    )
    assert bob_upload.status_code == 201


def test_a_limit_can_be_off(anonymous: APIClient, settings: Settings) -> None:
    settings.AGON_RATE_LIMITS = {**settings.AGON_RATE_LIMITS, "signup": "off"}

    assert [register(anonymous, f"user{n}") for n in range(15)] == [201] * 15


def test_it_limits_the_timelines_an_anonymous_address_asks_for(
    anonymous: APIClient, settings: Settings
) -> None:
    settings.AGON_RATE_LIMITS = {**settings.AGON_RATE_LIMITS, "timeline": "3/minute"}
    statuses = [
        anonymous.get("/api/matches/999999/timeline/", REMOTE_ADDR="10.0.5.1").status_code
        for _ in range(4)
    ]
    refused = anonymous.get("/api/matches/999999/timeline/?seat=0", REMOTE_ADDR="10.0.5.1")

    assert statuses == [404, 404, 404, 429]
    assert refused.status_code == 429
    assert refused["Retry-After"] == "60"
    assert refused.json()["error"] == "too many timelines asked for: try again in 60 seconds"
    elsewhere = anonymous.get("/api/matches/999999/timeline/", REMOTE_ADDR="10.0.5.2")
    assert elsewhere.status_code == 404


def test_it_limits_how_often_an_owner_resumes_a_bot(
    alice_client: APIClient, make_bot: MakeBot, alice: User, settings: Settings
) -> None:
    settings.AGON_RATE_LIMITS = {**settings.AGON_RATE_LIMITS, "resume": "2/hour"}
    bot = make_bot(alice, "sleepy")
    statuses = [alice_client.post(f"/api/bots/{bot.id}/resume/").status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    refused = alice_client.post(f"/api/bots/{bot.id}/resume/")
    assert refused["Retry-After"] == "3600"
    assert refused.json()["error"] == "too many resumptions: try again in 60 minutes"


def test_it_limits_the_dataset_parts_an_address_downloads(
    anonymous: APIClient, settings: Settings
) -> None:
    """Each part is streamed by a web process: a client may not ask for them without end
    (a part the site does not have counts too, as a timeline does)."""
    settings.AGON_RATE_LIMITS = {**settings.AGON_RATE_LIMITS, "dataset": "3/minute"}
    url = "/api/games/akropolis/datasets/files/part-000001-none.parquet"
    statuses = [anonymous.get(url, REMOTE_ADDR="10.0.6.1").status_code for _ in range(4)]
    refused = anonymous.get(url, REMOTE_ADDR="10.0.6.1")

    assert statuses == [404, 404, 404, 429]
    assert refused["Retry-After"] == "60"
    assert refused.json()["error"] == "too many dataset downloads: try again in 60 seconds"
    assert anonymous.get(url, REMOTE_ADDR="10.0.6.2").status_code == 404
    assert (
        anonymous.get("/api/games/akropolis/datasets/", REMOTE_ADDR="10.0.6.1").status_code == 200
    )
