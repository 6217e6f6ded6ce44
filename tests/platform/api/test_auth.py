"""POST /api/auth/register/ and POST /api/auth/token/."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.platform.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_signs_a_new_user_up(anonymous: APIClient) -> None:
    response = anonymous.post(
        "/api/auth/register/", {"username": "carol", "password": PASSWORD}, format="json"
    )

    assert response.status_code == 201
    user = User.objects.get(username="carol")
    assert response.json() == {"id": user.id, "username": "carol"}
    assert user.check_password(PASSWORD)
    assert "password" not in response.json()


def test_it_rejects_a_password_shorter_than_eight_characters(anonymous: APIClient) -> None:
    response = anonymous.post(
        "/api/auth/register/", {"username": "carol", "password": "short7!"}, format="json"
    )

    assert response.status_code == 400
    assert "at least 8 characters" in response.json()["error"]
    assert not User.objects.filter(username="carol").exists()


def test_it_rejects_a_taken_username_whatever_its_case(anonymous: APIClient, alice: User) -> None:
    for username in ("alice", "Alice"):
        response = anonymous.post(
            "/api/auth/register/", {"username": username, "password": PASSWORD}, format="json"
        )

        assert response.status_code == 400
        assert response.json()["error"] == f"the username {username!r} is taken; choose another"
    assert User.objects.count() == 1


def test_it_rejects_a_username_with_spaces_or_slashes(anonymous: APIClient) -> None:
    for username in ("carol smith", "carol/x"):
        response = anonymous.post(
            "/api/auth/register/", {"username": username, "password": PASSWORD}, format="json"
        )

        assert response.status_code == 400
        assert response.json()["error"].startswith("a username is 2 to 30 characters")


def test_it_asks_for_both_fields(anonymous: APIClient) -> None:
    response = anonymous.post("/api/auth/register/", {"username": "carol"}, format="json")

    assert response.status_code == 400
    assert response.json()["error"] == "password: This field is required."


def test_signing_up_while_signed_in_in_a_browser_needs_no_csrf_token(alice: User) -> None:
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(alice)

    response = browser.post(
        "/api/auth/register/", {"username": "carol", "password": PASSWORD}, format="json"
    )

    assert response.status_code == 201


def test_it_gives_a_token_for_a_username_and_password(anonymous: APIClient, alice: User) -> None:
    response = anonymous.post(
        "/api/auth/token/", {"username": "alice", "password": PASSWORD}, format="json"
    )

    assert response.status_code == 200
    assert response.json() == {"token": Token.objects.get(user=alice).key}


def test_it_gives_the_same_token_every_time(anonymous: APIClient, alice: User) -> None:
    tokens = {
        anonymous.post(
            "/api/auth/token/", {"username": "alice", "password": PASSWORD}, format="json"
        ).json()["token"]
        for _ in range(2)
    }

    assert len(tokens) == 1


def test_it_refuses_a_token_for_a_wrong_password(anonymous: APIClient, alice: User) -> None:
    response = anonymous.post(
        "/api/auth/token/", {"username": "alice", "password": "not the password"}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["error"] == "Unable to log in with provided credentials."
    assert not Token.objects.exists()


def test_the_token_signs_requests_in(anonymous: APIClient, alice: User) -> None:
    token = anonymous.post(
        "/api/auth/token/", {"username": "alice", "password": PASSWORD}, format="json"
    ).json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    response = client.post("/api/challenges/", {}, format="json")

    assert response.status_code == 400  # past authentication, to the missing fields


def test_a_wrong_token_is_refused_with_401(anonymous: APIClient) -> None:
    anonymous.credentials(HTTP_AUTHORIZATION="Token not-a-token")

    response = anonymous.get("/api/games/")

    assert response.status_code == 401
    assert response.json()["error"] == "Invalid token."


def test_me_names_the_token_s_user_and_no_one_without_a_token(
    anonymous: APIClient, alice: User
) -> None:
    token = Token.objects.create(user=alice)
    anonymous.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert anonymous.get("/api/auth/me/").json() == {"id": alice.id, "username": "alice"}
    anonymous.credentials()
    refused = anonymous.get("/api/auth/me/")
    assert refused.status_code == 401
    assert "credentials were not provided" in refused.json()["error"]
