"""The API token page, `/my/token/` (issue 26: no token anywhere in the UI)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.platform.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def signed_in(user: User) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_it_asks_to_sign_in_first(client: Client) -> None:
    response = client.get("/my/token/")
    assert response.status_code == 302 and "/signin/" in response["Location"]


def test_a_get_never_makes_a_token_a_post_does_and_the_api_takes_it(alice: User) -> None:
    client = signed_in(alice)

    first = client.get("/my/token/")
    assert "You have no token yet" in first.content.decode()
    assert not Token.objects.filter(user=alice).exists()
    assert "no-store" in first["Cache-Control"] or "max-age=0" in first["Cache-Control"]

    client.post("/my/token/")
    key = Token.objects.get(user=alice).key
    assert key in client.get("/my/token/").content.decode()

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/bots/?owner=alice").status_code == 200


def test_replacing_it_stops_the_old_one_at_once(alice: User) -> None:
    client = signed_in(alice)
    client.post("/my/token/")
    old = Token.objects.get(user=alice).key

    client.post("/my/token/")

    new = Token.objects.get(user=alice).key
    assert new != old
    page = client.get("/my/token/").content.decode()
    assert new in page and old not in page
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {old}")
    assert api.get("/api/bots/").status_code == 401


def test_nobody_sees_anybody_else_s_token(alice: User, bob: User) -> None:
    signed_in(alice).post("/my/token/")
    key = Token.objects.get(user=alice).key

    assert key not in signed_in(bob).get("/my/token/").content.decode()


def test_a_post_needs_the_csrf_token(alice: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.login(username="alice", password=PASSWORD)
    assert client.post("/my/token/").status_code == 403
    assert not Token.objects.filter(user=alice).exists()
