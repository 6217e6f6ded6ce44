"""The OpenAPI schema at /api/schema/ and the Swagger UI at /api/docs/, served whole
from this machine (the UI's assets come from drf-spectacular-sidecar, not a CDN)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_the_schema_generates_without_warnings_or_errors(tmp_path: Path) -> None:
    target = tmp_path / "schema.yml"

    # --fail-on-warn turns every warning of drf-spectacular into a failure.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))

    schema = yaml.safe_load(target.read_text())
    assert schema["openapi"].startswith("3.")


def test_the_schema_describes_every_endpoint(anonymous: APIClient) -> None:
    response = anonymous.get("/api/schema/?format=json")

    assert response.status_code == 200
    paths = response.json()["paths"]
    assert set(paths) == {
        "/api/",
        "/api/auth/register/",
        "/api/auth/token/",
        "/api/auth/me/",
        "/api/games/",
        "/api/games/{game_id}/datasets/",
        "/api/games/{game_id}/datasets/files/{name}",
        "/api/games/{game_id}/stats/",
        "/api/bots/",
        "/api/bots/{bot_id}/",
        "/api/bots/{bot_id}/head-to-head/",
        "/api/bots/{bot_id}/versions/",
        "/api/bots/{bot_id}/versions/{number}/download/",
        "/api/bots/{bot_id}/tests/",
        "/api/bots/{bot_id}/tests/{test_id}/",
        "/api/bots/{bot_id}/resume/",
        "/api/bots/{bot_id}/retire/",
        "/api/bots/{bot_id}/reactivate/",
        "/api/bots/{bot_id}/entries/",
        "/api/bots/{bot_id}/competitions/",
        "/api/ladders/",
        "/api/ladders/{ladder_id}/leaderboard/",
        "/api/matches/",
        "/api/matches/{match_id}/",
        "/api/matches/{match_id}/replay/",
        "/api/matches/{match_id}/timeline/",
        "/api/matches/{match_id}/analysis/",
        "/api/matches/{match_id}/logs/{seat}/",
        "/api/challenges/",
        "/api/tournaments/",
        "/api/tournaments/{tournament_id}/",
        "/api/tournaments/{tournament_id}/entries/",
        "/api/tournaments/{tournament_id}/entries/{entry_id}/",
        "/api/tournaments/{tournament_id}/games/",
        "/api/tournaments/{tournament_id}/cancel/",
        "/api/competitions/",
        "/api/competitions/{competition_id}/",
        "/api/competitions/{competition_id}/standings/",
        "/api/competitions/{competition_id}/games/",
        "/api/competitions/{competition_id}/entries/",
        "/api/competitions/{competition_id}/entries/{bot_id}/",
        "/api/notifications/",
        "/api/notifications/settings/",
        "/api/notifications/webhooks/",
        "/api/notifications/webhooks/{webhook_id}/",
        "/api/notifications/webhooks/{webhook_id}/test/",
        "/api/notifications/webhooks/{webhook_id}/deliveries/",
    }
    one_bot = paths["/api/bots/{bot_id}/"]
    assert {"get", "patch", "delete"} <= set(one_bot)
    assert {"204", "409"} <= set(one_bot["delete"]["responses"])
    assert set(paths["/api/bots/{bot_id}/retire/"]) == {"post"}
    upload = paths["/api/bots/"]["post"]["requestBody"]["content"]["multipart/form-data"]
    assert upload["schema"]["$ref"] == "#/components/schemas/BotCreateRequest"
    schemas = response.json()["components"]["schemas"]
    assert schemas["BotCreateRequest"]["properties"]["file"]["format"] == "binary"
    assert "PaginatedMatchList" in schemas
    assert set(paths["/api/notifications/settings/"]) == {"get", "put", "patch"}
    kinds = schemas["NotificationSettingsRequest"]["properties"]["kinds"]
    assert kinds["additionalProperties"] is False, "an unknown kind is refused, as it says"
    assert "secret" in schemas["WebhookCreated"]["properties"]
    assert "secret" not in schemas["Webhook"]["properties"], "shown once, when it is added"


def test_the_docs_page_renders_with_local_assets(anonymous: APIClient) -> None:
    response = anonymous.get("/api/docs/")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in assets
    # Its start script is a file too (no inline script: the Content-Security-Policy).
    assert "/api/docs/?script=" in assets
    assert all(asset.startswith(("/static/", "/api/docs/")) for asset in assets), assets
    assert "<script>" not in page and "<style" not in page
    assert "cdn" not in page.lower()
    script = anonymous.get("/api/docs/?script=")
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()
    for asset in assets:
        served = anonymous.get(asset)
        assert served.status_code == 200, asset
        served.close()


def test_the_api_root_links_every_collection() -> None:
    from rest_framework.test import APIClient

    links = APIClient().get("/api/").json()
    assert links["ladders"].endswith("/api/ladders/")
    assert links["docs"].endswith("/api/docs/")
    assert set(links) >= {"games", "bots", "ladders", "matches", "challenges", "schema"}
