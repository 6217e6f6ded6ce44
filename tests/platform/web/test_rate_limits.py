"""The pages' forms are rate limited like the API: a refused form comes back as 429
with Retry-After and says why above the form."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django import Settings

from agon.bots.models import Bot
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.support import py_upload

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def low_limits(settings: Settings) -> None:
    settings.AGON_RATE_LIMITS = {
        "signup": "2/hour",
        "signin-username": "2/15minute",
        "signin-address": "4/15minute",
        "upload": "1/hour",
        "challenge": "2/hour",
    }


def test_the_sign_up_form_says_when_an_address_signed_up_too_often() -> None:
    statuses = []
    for n in range(3):
        client = Client(REMOTE_ADDR="10.0.0.1")
        form = {"username": f"user{n}", "password1": PASSWORD, "password2": PASSWORD}
        response = client.post("/signup/", form)
        statuses.append(response.status_code)

    assert statuses == [302, 302, 429]
    assert response["Retry-After"] == "3600"
    assert "Too many sign-ups from your address: try again in 60 minutes." in (
        response.content.decode()
    )
    assert User.objects.count() == 2


def test_the_sign_in_form_counts_failures_per_username(alice: User) -> None:
    client = Client(REMOTE_ADDR="10.0.0.1")
    statuses = [
        client.post("/signin/", {"username": "alice", "password": "wrong"}).status_code
        for _ in range(3)
    ]
    refused = client.post("/signin/", {"username": "alice", "password": PASSWORD})

    assert statuses == [200, 200, 429]
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Too many failed sign-ins for this username: try again in 15 minutes." in page
    assert 'value="alice"' in page
    assert "_auth_user_id" not in client.session


def test_a_successful_sign_in_does_not_count(alice: User) -> None:
    for _ in range(5):
        client = Client(REMOTE_ADDR="10.0.0.1")
        assert (
            client.post("/signin/", {"username": "alice", "password": PASSWORD}).status_code == 302
        )


def test_the_upload_forms_say_when_a_user_uploaded_too_often(
    alice_browser: Client, make_bot: MakeBot, alice: User
) -> None:
    bot = make_bot(alice, "first")
    first = alice_browser.post(
        "/my/bots/", {"name": "second", "game": "akropolis", "file": py_upload()}
    )
    refused = alice_browser.post(
        "/my/bots/", {"name": "third", "game": "akropolis", "file": py_upload()}
    )
    refused_version = alice_browser.post(f"/my/bots/{bot.id}/", {"file": py_upload()})

    assert first.status_code == 302
    assert (refused.status_code, refused_version.status_code) == (429, 429)
    assert "Too many uploads: try again in 60 minutes." in refused.content.decode()
    assert "Too many uploads" in refused_version.content.decode()
    assert refused_version["Retry-After"] == "3600"
    assert Bot.objects.filter(owner=alice).count() == 2
