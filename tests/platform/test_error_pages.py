"""What users see when something goes wrong: JSON under /api/ for every status (Django's
own 404s, 400s and 500s too), a plain page in the site's style elsewhere, never Django's
debug pages; security headers and a Content-Security-Policy on every response."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django import Settings
from rest_framework.test import APIClient

from agon.api import games
from agon.web import selectors
from tests.platform.conftest import MakeBot
from tests.platform.support import py_upload

pytestmark = pytest.mark.django_db

REPO_DIR = Path(__file__).resolve().parents[2]


def assert_json_error(response: object, status: int) -> dict[str, object]:
    assert response.status_code == status  # type: ignore[attr-defined]
    assert response["Content-Type"] == "application/json"  # type: ignore[index]
    body = response.json()  # type: ignore[attr-defined]
    assert set(body) == {"error", "detail"}, body
    assert isinstance(body["error"], str) and body["error"]
    return dict(body)


@pytest.mark.parametrize(
    "path",
    [
        "/api/nothing-here/",
        "/api/bots/abc/",
        "/api/matches/1e3/replay/",
        "/api/ladders/-1/leaderboard/",
        "/api/matches/7/logs/first/",
    ],
)
def test_an_unknown_api_path_is_a_json_404(path: str) -> None:
    body = assert_json_error(APIClient().get(path), 404)

    assert body["error"] == f"there is no API endpoint at {path}"


def test_an_api_server_error_is_json(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("the database caught fire")

    monkeypatch.setattr(games.GameListView, "get", broken)
    client = APIClient(raise_request_exception=False)

    body = assert_json_error(client.get("/api/games/"), 500)

    assert body["error"] == "the server failed to answer this request; it has been logged"
    assert "caught fire" not in str(body)


def test_an_api_request_for_an_unknown_host_is_a_json_400() -> None:
    body = assert_json_error(APIClient().get("/api/games/", HTTP_HOST="evil.example"), 400)

    assert body["error"] == "bad request"


def test_an_unknown_page_is_the_site_s_plain_404() -> None:
    response = Client().get("/no/such/page/")

    assert response.status_code == 404
    page = response.content.decode()
    assert "<h1>Page not found</h1>" in page
    assert 'href="/static/web/agon.css"' in page
    assert "URLconf" not in page and "DEBUG" not in page


def test_a_missing_bot_page_says_so_in_the_site_s_style() -> None:
    response = Client().get("/bots/999999/")

    assert response.status_code == 404
    assert "<p>There is no bot 999999.</p>" in response.content.decode()


def test_a_site_server_error_is_a_plain_page(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("the database caught fire")

    monkeypatch.setattr(selectors, "ladders_with_leaders", broken)
    response = Client(raise_request_exception=False).get("/ladders/")

    assert response.status_code == 500
    page = response.content.decode()
    assert "<h1>Something went wrong</h1>" in page
    assert "caught fire" not in page


def test_a_form_posted_without_its_csrf_token_gets_a_plain_403() -> None:
    client = Client(enforce_csrf_checks=True)

    response = client.post("/signup/", {"username": "x"})

    assert response.status_code == 403
    page = response.content.decode()
    assert "<h1>Forbidden</h1>" in page
    assert "reload the page" in page


@pytest.mark.parametrize(
    "path", ["/", "/api/games/", "/api/nothing/", "/healthz", "/static/web/agon.css", "/x/"]
)
def test_every_response_has_a_content_security_policy(path: str) -> None:
    response = Client().get(path)

    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self';" in policy + ";"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "camera=()" in response["Permissions-Policy"]


def debug_of(environment: dict[str, str], tmp_path: Path) -> str:
    """settings.DEBUG under `agon up`'s settings (agon.settings.local)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("AGON_")} | {
        "DJANGO_SETTINGS_MODULE": "agon.settings.local",
        "AGON_VAR_DIR": str(tmp_path),
        "PYTHONPATH": os.pathsep.join([str(REPO_DIR), str(REPO_DIR / "platform")]),
        **environment,
    }
    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_agon_up_serves_with_debug_off_unless_asked(tmp_path: Path) -> None:
    assert debug_of({}, tmp_path) == "False"
    assert debug_of({"AGON_DEBUG": "1"}, tmp_path) == "True"


def test_agon_up_says_whether_it_serves_with_debug() -> None:
    from agon.cli.up_prepare import debug_line

    assert debug_line(False).startswith("serving with debug off")
    assert debug_line(True).startswith("serving with debug ON (AGON_DEBUG is set)")


def test_every_api_error_status_is_json(
    anonymous: APIClient,
    alice_client: APIClient,
    bob: User,
    make_bot: MakeBot,
    settings: Settings,
) -> None:
    settings.AGON_RATE_LIMITS = {**settings.AGON_RATE_LIMITS, "challenge": "1/hour"}
    bobs = make_bot(bob, "bee")
    alice_client.post("/api/challenges/", {"ladder": 0, "bots": [1]}, format="json")
    answers = {
        400: alice_client.post("/api/auth/register/", {}, format="json"),
        401: anonymous.post("/api/challenges/", {}, format="json"),
        403: alice_client.post(f"/api/bots/{bobs.id}/versions/", {"file": py_upload()}),
        404: anonymous.get("/api/bots/not-a-number/"),
        405: anonymous.delete("/api/games/"),
        429: alice_client.post("/api/challenges/", {"ladder": 0, "bots": [1]}, format="json"),
    }

    for status, response in answers.items():
        assert_json_error(response, status)


def test_an_error_page_that_cannot_be_drawn_is_still_answered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.template import loader

    def no_manifest(*args: object, **kwargs: object) -> str:
        raise ValueError("Missing staticfiles manifest entry for 'web/agon.css'")

    monkeypatch.setattr(loader, "render_to_string", no_manifest)

    response = Client().get("/no/such/page/")

    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in response.content.decode()
