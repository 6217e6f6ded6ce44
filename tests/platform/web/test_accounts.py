"""Signing up, in and out through Django's auth forms, with CSRF checks."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

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
