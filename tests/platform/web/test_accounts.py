"""Signing up (through the service the API uses, with its checks and its rate limit),
in and out through Django's auth forms, with CSRF checks."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pytest_django import Settings
from rest_framework.test import APIClient

from agon.accounts import services
from agon.web.forms import sentence
from tests.platform.conftest import PASSWORD


@pytest.mark.django_db
def test_signing_up_makes_an_account_and_signs_in() -> None:
    client = Client()
    response = client.post(
        reverse("web:signup"),
        {"username": "zoe", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302 and response["Location"] == reverse("web:my-bots")
    assert User.objects.filter(username="zoe").exists()
    assert "Welcome, zoe" in client.get(reverse("web:my-bots")).content.decode()


@pytest.mark.django_db
def test_a_username_is_taken_whatever_its_case(alice: User) -> None:
    response = Client().post(
        reverse("web:signup"),
        {"username": "ALICE", "password1": PASSWORD, "password2": PASSWORD},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "The username &#x27;ALICE&#x27; is taken" in page
    assert 'aria-invalid="true"' in page


@pytest.mark.django_db
def test_signing_up_refuses_mismatched_and_short_passwords() -> None:
    page = (
        Client()
        .post(
            reverse("web:signup"), {"username": "zoe", "password1": "short", "password2": "other"}
        )
        .content.decode()
    )
    assert "match." in page and "password fields" in page
    assert not User.objects.filter(username="zoe").exists()


@pytest.mark.django_db
def test_mismatched_passwords_do_not_hide_why_a_username_is_refused(alice: User) -> None:
    page = (
        Client()
        .post(reverse("web:signup"), {"username": "ALICE", "password1": "a", "password2": "b"})
        .content.decode()
    )
    assert "The username &#x27;ALICE&#x27; is taken; choose another." in page
    assert "The two password fields didn\u2019t match." in page


@pytest.mark.django_db
def test_the_sign_up_page_makes_its_users_through_the_service_the_api_uses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[str] = []
    register = services.user_register

    def watched(*, username: str, password: str) -> User:
        made.append(username)
        return register(username=username, password=password)

    monkeypatch.setattr(services, "user_register", watched)
    monkeypatch.setattr("agon.web.views.accounts.user_register", watched)
    form = {"username": "zoe", "password1": PASSWORD, "password2": PASSWORD}

    assert Client().post(reverse("web:signup"), form).status_code == 302
    assert made == ["zoe"]


CYRILLIC_A = "\u0430"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "password"),
    [
        ("ALICE", PASSWORD),  # taken, case aside
        (f"{CYRILLIC_A}lice", PASSWORD),  # not ASCII
        ("a1ice", PASSWORD),  # too like alice
        ("ad-min", PASSWORD),  # accepted by both
        ("admin", PASSWORD),  # reserved
        ("carol smith", PASSWORD),
        ("x", PASSWORD),
        ("carol", "short7!"),
        ("ALICE", "short7!"),  # both: the page says both, the API the username's first
    ],
)
def test_the_sign_up_page_and_the_api_refuse_the_same_sign_ups_for_the_same_reasons(
    alice: User, username: str, password: str
) -> None:
    api = APIClient().post(
        "/api/auth/register/", {"username": username, "password": password}, format="json"
    )
    if api.status_code == 201:
        User.objects.filter(id=api.json()["id"]).delete()  # for the page to sign up again
    page = Client().post(
        reverse("web:signup"),
        {"username": username, "password1": password, "password2": password},
    )

    if api.status_code == 201:
        assert page.status_code == 302, "the page signs up whom the API signs up"
        return
    assert api.status_code == 400 and page.status_code == 200
    shown = html.unescape(page.content.decode())
    reasons = api.json()["detail"]
    assert reasons and all(sentence(reason) in shown for reason in reasons)
    assert sentence(api.json()["error"]) in shown
    assert User.objects.count() == 1


@pytest.mark.django_db
def test_the_sign_up_page_and_the_api_count_in_one_limit_per_address(settings: Settings) -> None:
    settings.AGON_RATE_LIMITS = {**settings.AGON_RATE_LIMITS, "signup": "2/hour"}
    address = "10.0.0.7"
    on_page = Client(REMOTE_ADDR=address).post(
        reverse("web:signup"), {"username": "zoe", "password1": PASSWORD, "password2": PASSWORD}
    )
    by_api = APIClient(REMOTE_ADDR=address).post(
        "/api/auth/register/", {"username": "yan", "password": PASSWORD}, format="json"
    )
    page_refused = Client(REMOTE_ADDR=address).post(
        reverse("web:signup"), {"username": "xia", "password1": PASSWORD, "password2": PASSWORD}
    )
    api_refused = APIClient(REMOTE_ADDR=address).post(
        "/api/auth/register/", {"username": "wen", "password": PASSWORD}, format="json"
    )

    assert [on_page.status_code, by_api.status_code] == [302, 201]
    assert [page_refused.status_code, api_refused.status_code] == [429, 429]
    assert "Too many sign-ups from your address" in page_refused.content.decode()
    assert api_refused.json()["error"].startswith("too many sign-ups from your address")
    assert sorted(User.objects.values_list("username", flat=True)) == ["yan", "zoe"]


def test_signing_in_and_out(alice: User) -> None:
    client = Client(enforce_csrf_checks=True)
    form = client.get(reverse("web:signin"))
    token = form.cookies["csrftoken"].value
    response = client.post(
        reverse("web:signin"),
        {"username": "alice", "password": PASSWORD, "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 302 and response["Location"] == reverse("web:my-bots")
    page = client.get(reverse("web:home")).content.decode()
    assert "Sign out" in page
    assert client.get(reverse("web:signout")).status_code == 405, "signing out is a POST"
    token = client.cookies["csrftoken"].value
    response = client.post(reverse("web:signout"), {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert "Sign in" in client.get(reverse("web:home")).content.decode()


def test_a_post_without_its_csrf_token_is_refused(alice: User) -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("web:signin"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 403


def test_a_wrong_password_says_so(alice: User) -> None:
    page = (
        Client()
        .post(reverse("web:signin"), {"username": "alice", "password": "nope nope"})
        .content.decode()
    )
    assert "enter a correct username and password" in page
