"""`GET /api/games/{id}/stats/`: the statistics page's figures as JSON, public, 404 for
a game that is not there."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from agon.game_stats.stats import game_stats
from tests.platform.game_stats.support import ranked

pytestmark = pytest.mark.django_db


def test_it_gives_the_figures_of_the_page(anonymous: APIClient) -> None:
    ranked([1, 2], [30, 20], turns=12, openings=["a", "b"])
    ranked([1, 1, 3], [8, 8, 2])

    response = anonymous.get("/api/games/akropolis/stats/")

    assert response.status_code == 200
    body = response.json()
    assert body["page_url"] == "http://testserver/games/akropolis/stats/"
    expected = game_stats("akropolis")
    assert body["player_counts"] == expected["player_counts"]
    assert body["matches"] == 2 and body["game"] == "akropolis"
    two = body["player_counts"][0]
    assert two["seats"][0]["interval"][1] == 1.0
    assert two["openings"][0] == {
        "move": "a",
        "played": 1,
        "wins": 1,
        "shared_firsts": 0,
        "win_rate": 1.0,
        "interval": two["seats"][0]["interval"],
    }


def test_a_game_without_matches_has_empty_figures(anonymous: APIClient) -> None:
    body = anonymous.get("/api/games/attika/stats/").json()

    assert body["matches"] == 0 and body["player_counts"] == []


def test_an_unknown_game_is_404(anonymous: APIClient) -> None:
    response = anonymous.get("/api/games/chess/stats/")

    assert response.status_code == 404
    assert "chess" in response.json()["error"]
