"""GET /healthz: 200 with each check when the database and the broker answer, 503 with the
failed check and why when one does not; any Host, never redirected, always bounded."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import connections
from django.test import Client
from pytest_django import Settings

from tests.platform.ops.support import closed_port, silent_server

pytestmark = pytest.mark.django_db


def test_it_answers_200_with_each_check_when_the_database_and_the_broker_answer(
    client: Client,
) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    report = response.json()
    assert report["status"] == "ok"
    assert report["checks"]["database"]["ok"] is True
    assert report["checks"]["database"]["vendor"] == "postgresql"
    assert report["checks"]["broker"]["ok"] is True
    assert report["checks"]["broker"]["transport"] == "redis"
    assert "sandbox" not in report["checks"], "no bot is boxed in the web process"


def test_it_answers_503_naming_the_broker_when_the_broker_is_unreachable(
    client: Client, settings: Settings
) -> None:
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{closed_port()}/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    report = response.json()
    assert report["status"] == "failing"
    assert report["failed"] == ["broker"]
    assert report["checks"]["database"]["ok"] is True
    broker = report["checks"]["broker"]
    assert broker["ok"] is False
    assert "Connection refused" in broker["error"]


def test_it_answers_503_naming_the_database_when_the_database_is_unreachable(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(connections["default"].settings_dict, "PORT", str(closed_port()))
    response = client.get("/healthz")
    assert response.status_code == 503
    report = response.json()
    assert report["failed"] == ["database"]
    assert "Connection refused" in report["checks"]["database"]["error"]
    assert report["checks"]["broker"]["ok"] is True


def test_a_database_that_never_answers_fails_the_check_within_the_timeout(
    client: Client, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL's own connect timeout is 2 s at least: the check gives up sooner."""
    settings.AGON_HEALTH_TIMEOUT_SECONDS = 0.5
    with silent_server() as port:
        monkeypatch.setitem(connections["default"].settings_dict, "PORT", str(port))
        started = time.monotonic()
        response = client.get("/healthz")
        elapsed = time.monotonic() - started
    assert response.status_code == 503
    assert response.json()["checks"]["database"]["error"] == "no answer within 0.5 s"
    assert elapsed < 1.5


def test_a_broker_that_never_answers_fails_the_check_within_the_timeout(
    client: Client, settings: Settings
) -> None:
    settings.AGON_HEALTH_TIMEOUT_SECONDS = 0.5
    with silent_server() as port:
        settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{port}/0"
        started = time.monotonic()
        response = client.get("/healthz")
        elapsed = time.monotonic() - started
    assert response.status_code == 503
    assert response.json()["failed"] == ["broker"]
    assert elapsed < 1.5


def test_a_password_in_a_failing_url_is_not_shown(client: Client, settings: Settings) -> None:
    settings.CELERY_BROKER_URL = f"redis://agon:hunter2@127.0.0.1:{closed_port()}/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    assert b"hunter2" not in response.content


@pytest.fixture
def production_like(settings: Settings) -> None:
    """The public name only in ALLOWED_HOSTS, and plain HTTP redirected to HTTPS."""
    settings.ALLOWED_HOSTS = ["agon.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")


@pytest.mark.usefixtures("production_like")
def test_a_load_balancer_gets_an_answer_over_http_with_the_instance_address_as_host(
    client: Client,
) -> None:
    response = client.get("/healthz", HTTP_HOST="10.0.3.17:8000")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"


@pytest.mark.usefixtures("production_like")
def test_other_pages_still_check_the_host_and_redirect_to_https(client: Client) -> None:
    assert client.get("/api/", HTTP_HOST="10.0.3.17:8000").status_code == 400
    redirect: Any = client.get("/api/", HTTP_HOST="agon.example.org")
    assert redirect.status_code == 301
    assert redirect["Location"] == "https://agon.example.org/api/"


def test_only_reading_is_allowed(client: Client) -> None:
    assert client.post("/healthz").status_code == 405
    assert client.head("/healthz").status_code == 200
