"""A game's page, `/games/<id>/` (issue 26: it was a 404; only the rules page existed)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agon.ladders.models import Ladder
from engine.registry import game_ids, get_spec
from tests.platform.conftest import MakeBot
from tests.platform.support import play_ranked

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_has_a_page_with_its_ladders_and_a_first_bot(
    client: Client, ladders: list[Ladder], game_id: str
) -> None:
    page = client.get(f"/games/{game_id}/")

    assert page.status_code == 200
    text = page.content.decode()
    assert f"<h1>{get_spec(game_id).name} " in text
    assert f"agon-kit play --game {game_id} --seed 1 my_bot.py builtin:greedy" in text
    for ladder in Ladder.objects.filter(game=game_id, active=True):
        assert f'href="/ladders/{ladder.id}/"' in text
    assert f'href="/games/{game_id}/rules/"' in text


def test_it_shows_the_best_bots_and_the_latest_matches_of_its_game_only(
    client: Client, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    winner, loser = make_bot(alice, "winner"), make_bot(bob, "loser")
    match = play_ranked(ladder_2p, [winner, loser], scores=[3, 1])

    text = client.get(f"/games/{ladder_2p.game}/").content.decode()
    other = next(game for game in game_ids() if game != ladder_2p.game)
    elsewhere = client.get(f"/games/{other}/").content.decode()

    assert text.index(">winner<") < text.index(">loser<")
    assert f'href="/matches/{match.id}/"' in text
    assert f'href="/matches/{match.id}/"' not in elsewhere


def test_an_unknown_game_is_404(client: Client, db: None) -> None:
    assert client.get("/games/chess/").status_code == 404


def test_the_home_page_and_the_rules_pages_link_to_the_game_pages(
    client: Client, ladders: list[Ladder]
) -> None:
    home = client.get("/").content.decode()
    for game_id in game_ids():
        assert f'href="/games/{game_id}/"' in home
    rules = client.get("/games/akropolis/rules/").content.decode()
    assert 'href="/games/akropolis/"' in rules
