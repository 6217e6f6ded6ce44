"""A game's statistics page, `/games/<id>/stats/`: linked from the game's page and its
ladders' leaderboards, empty before any ranked match, and with matches: a table of
seats with their intervals, histograms of lengths and scores, and the openings, every
text escaped."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from agon.ladders.models import Ladder
from engine.registry import game_ids, get_spec
from tests.platform.game_stats.support import ranked

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_has_a_statistics_page_saying_there_is_nothing_yet(
    client: Client, game_id: str
) -> None:
    page = client.get(f"/games/{game_id}/stats/")

    assert page.status_code == 200
    text = page.content.decode()
    assert f"<h1>{get_spec(game_id).name} statistics</h1>" in text
    assert "has finished yet" in text
    assert f'href="/api/games/{game_id}/stats/"' in text


def test_an_unknown_game_has_no_statistics_page(client: Client) -> None:
    assert client.get("/games/chess/stats/").status_code == 404


def test_the_game_page_and_the_leaderboards_link_to_it(
    client: Client, ladders: list[Ladder]
) -> None:
    assert 'href="/games/attika/stats/"' in client.get("/games/attika/").content.decode()
    ladder = Ladder.objects.get(game="attika", players=3)
    leaderboard = client.get(f"/ladders/{ladder.id}/").content.decode()
    assert 'href="/games/attika/stats/#players-3"' in leaderboard


def test_it_shows_seats_lengths_scores_and_openings_by_player_count(client: Client) -> None:
    game = "megalopolis"
    for _ in range(6):
        ranked(
            [1, 2], [40, 31], game=game, turns=22, openings=["played a Stadium", "played a Factory"]
        )
    ranked([2, 1], [35, 36], game=game, turns=26, openings=["played a Stadium", "played a Park"])
    ranked([1, 1, 3], [20, 20, 5], game=game)

    text = client.get("/games/megalopolis/stats/").content.decode()

    assert '<h2 id="players-2">2 players <span class="muted">7 matches</span></h2>' in text
    assert '<h2 id="players-3">3 players <span class="muted">1 match</span></h2>' in text
    # Seat 1 won six of seven: 86 %, its interval above the even 50 %.
    assert re.search(
        r"<th scope=\"row\">1</th><td class=\"num\">7</td><td class=\"num\">6</td>", text
    )
    assert "86%" in text
    assert (
        '<tr class="first-mover"><th scope="row">first to move</th><td class="num">7</td>' in text
    )
    assert text.count('<svg class="rate-bar"') == 2 + 1 + 3 + 3  # seats, first mover, openings
    assert text.count('<svg class="chart histogram"') == 2 + 1  # no length for 3 players
    assert "<title>22 turns: 6 matches</title>" in text
    assert "Median 22 turns" in text
    assert "Not counted yet" in text  # the 3-player match is not digested
    assert text.index("played a Stadium") < text.index("played a Factory")


def test_hostile_labels_are_escaped(client: Client) -> None:
    ranked([1, 2], turns=3, openings=['<script>alert("x")</script>', "</svg><b>"])

    text = client.get("/games/akropolis/stats/").content.decode()

    assert "<script>alert" not in text and "</svg><b>" not in text
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in text
