"""The pages of a human game: starting one from a bot's page, the turn the page polls,
the moves it sends (hostile ones refused in words), and the owner's switch."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from agon.bots.models import Bot
from agon.matches.models import HumanTurn, Match
from agon.matches.services import match_claim
from agon.web.selectors import bot_record
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.support import finish_match

pytestmark = pytest.mark.django_db

LEGAL = [{"play": "a"}, {"play": "b"}]


def browser_of(user: User) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def start(client: Client, **fields: str) -> Match:
    data = {"game": "akropolis", "players": "2", "seat": "0", "opponent_1": "builtin:greedy"}
    data.update(fields)
    response = client.post("/play/?game=akropolis", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    match = Match.objects.get(kind=Match.Kind.HUMAN)
    assert response["Location"] == f"/play/{match.id}/"
    return match


def waiting_turn(match: Match) -> HumanTurn:
    assert match_claim(match_id=match.id) is not None
    quarry = {"kind": "quarry"}
    site = [{"position": 0, "cost": 0, "tile": 36, "hexes": [quarry, quarry, quarry]}]
    observation = {"player": 0, "site": site, "cities": [{"hexes": []}], "stones": [0, 0]}
    return HumanTurn.objects.create(
        match=match,
        seat=0,
        number=0,
        observation=observation,
        legal=[{"tile": 0, "q": 1, "r": 0, "rotation": 0}],
        asked=timezone.now(),
        deadline=timezone.now() + timedelta(seconds=60),
    )


def test_a_bots_page_offers_a_game_against_it_and_the_form_starts_one(
    alice: User, bob: User, make_bot: MakeBot
) -> None:
    bee = make_bot(bob, "bee")
    client = browser_of(alice)
    page = client.get(f"/bots/{bee.id}/").content.decode()
    assert f"/play/?game=akropolis&amp;opponent=bot:{bee.id}" in page
    form = client.get(f"/play/?game=akropolis&opponent=bot:{bee.id}").content.decode()
    assert f'<option value="bot:{bee.id}" selected>bob/bee</option>' in form
    match = start(
        client, players="3", seat="2", opponent_1=f"bot:{bee.id}", opponent_2="builtin:random"
    )
    labels = [seat.bot_id_label for seat in match.seats.order_by("seat")]
    assert labels[1:] == ["builtin:random", "human:alice"]
    played = client.get(f"/play/{match.id}/").content.decode()
    assert 'id="human-turn"' in played and "human_play.js" in played


def test_the_form_says_why_a_game_was_refused(alice: User) -> None:
    client = browser_of(alice)
    start(client)
    again = client.post(
        "/play/?game=akropolis",
        {"game": "akropolis", "players": "2", "seat": "0", "opponent_1": "builtin:greedy"},
    )
    assert again.status_code == 200
    assert "You are already playing a game: finish it first." in again.content.decode()
    seat = client.post(
        "/play/?game=akropolis",
        {"game": "akropolis", "players": "2", "seat": "3", "opponent_1": "builtin:greedy"},
    )
    assert "A game of 2 players has seats up to the second." in seat.content.decode()


def test_a_bot_its_owner_keeps_out_is_not_offered_and_cannot_be_forced(
    alice: User, bob: User, make_bot: MakeBot
) -> None:
    bee = make_bot(bob, "bee")
    owner = browser_of(bob)
    response = owner.post(f"/my/bots/{bee.id}/human-games/", {})
    assert response.status_code == 302
    assert not Bot.objects.get(id=bee.id).human_games
    client = browser_of(alice)
    assert f"bot:{bee.id}" not in client.get("/play/?game=akropolis").content.decode()
    refused = client.post(
        "/play/?game=akropolis",
        {"game": "akropolis", "players": "2", "seat": "0", "opponent_1": f"bot:{bee.id}"},
    )
    assert refused.status_code == 200
    assert not Match.objects.filter(kind=Match.Kind.HUMAN).exists()
    # Another user's switch is not theirs to flip.
    assert client.post(f"/my/bots/{bee.id}/human-games/", {"human_games": "on"}).status_code == 404
    assert owner.post(f"/my/bots/{bee.id}/human-games/", {"human_games": "on"}).status_code == 302
    assert Bot.objects.get(id=bee.id).human_games


def test_the_turn_is_shown_to_its_player_only(alice: User, bob: User) -> None:
    client = browser_of(alice)
    match = start(client)
    waiting_turn(match)
    mine = client.get(f"/play/{match.id}/turn.json").json()
    assert mine["status"] == "running" and mine["turn"]["number"] == 0
    assert mine["turn"]["board"] == "hex" and len(mine["turn"]["steps"]) == 1
    assert 55 <= mine["turn"]["seconds_left"] <= 60
    assert browser_of(bob).get(f"/play/{match.id}/turn.json").json() == {
        "status": "running",
        "turn": None,
    }
    assert Client().get(f"/play/{match.id}/turn.json").json()["turn"] is None
    watching = browser_of(bob).get(f"/play/{match.id}/").content.decode()
    assert 'id="human-turn"' not in watching and "You are watching" in watching


def post_move(client: Client, match: Match, body: bytes | str) -> tuple[int, dict[str, object]]:
    response = client.post(f"/play/{match.id}/move/", body, content_type="application/json")
    return response.status_code, response.json()


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (b"not json", 'a move is JSON: {"turn": n, "choice": i}'),
        (b"[0, 0]", 'a move is {"turn": n, "choice": i}, and nothing else'),
        (json.dumps({"turn": 0, "choice": 0, "as": "bob"}), "and nothing else"),
        (json.dumps({"turn": 0, "choice": True}), "the move's choice is a whole number from 0"),
        (json.dumps({"turn": 0, "choice": 1.0}), "the move's choice is a whole number"),
        (json.dumps({"turn": 0, "choice": "0"}), "the move's choice is a whole number"),
        (json.dumps({"turn": -1, "choice": 0}), "the move's turn is a whole number from 0"),
        (json.dumps({"turn": 0, "choice": 10**30}), "the move's choice is a whole number"),
        (json.dumps({"turn": 0, "choice": 5}), "turn 0 has 1 moves, from 0; not 5"),
        (json.dumps({"turn": 3, "choice": 0}), "turn 3 has not come yet"),
        (b"[" * 5000 + b"]" * 5000, "a move is at most 1024 bytes"),
        ('{"turn": 0, "choice": 0, "x": "' + "\u0000" * 2000 + '"}', "at most 1024 bytes"),
        (b"[" * 500 + b"]" * 500, 'a move is {"turn": n, "choice": i}'),
    ],
)
def test_a_move_that_is_not_one_is_refused_in_words(
    alice: User, body: bytes | str, error: str
) -> None:
    client = browser_of(alice)
    match = start(client)
    waiting_turn(match)
    status, answer = post_move(client, match, body)
    assert status == 400 and error in str(answer["error"])
    assert HumanTurn.objects.get(match=match).moved is None


def test_nobody_else_moves_for_the_player(alice: User, bob: User) -> None:
    client = browser_of(alice)
    match = start(client)
    waiting_turn(match)
    move = json.dumps({"turn": 0, "choice": 0})
    assert post_move(browser_of(bob), match, move) == (
        403,
        {"error": "you do not play in this game"},
    )
    assert post_move(Client(), match, move) == (403, {"error": "sign in to play"})
    assert HumanTurn.objects.get(match=match).moved is None
    assert post_move(client, match, move) == (200, {"played": 0})
    assert HumanTurn.objects.get(match=match).move == {"tile": 0, "q": 1, "r": 0, "rotation": 0}
    assert post_move(client, match, move) == (400, {"error": "turn 0 is already played"})


def test_moves_need_the_pages_csrf_token(alice: User) -> None:
    client = Client(enforce_csrf_checks=True)
    assert client.login(username="alice", password=PASSWORD)
    match = start(browser_of(alice))
    waiting_turn(match)
    response = client.post(
        f"/play/{match.id}/move/",
        json.dumps({"turn": 0, "choice": 0}),
        content_type="application/json",
    )
    assert response.status_code == 403
    assert HumanTurn.objects.get(match=match).moved is None


def test_only_human_games_have_a_play_page(alice: User) -> None:
    client = browser_of(alice)
    assert client.get("/play/999/").status_code == 404
    assert client.get("/play/999/turn.json").status_code == 404
    assert Client().get("/play/").status_code == 302  # sign in first


def test_games_against_humans_count_in_no_bots_record(
    alice: User, bob: User, make_bot: MakeBot
) -> None:
    bee = make_bot(bob, "bee")
    before = bot_record(bot=bee)
    match = start(browser_of(alice), opponent_1=f"bot:{bee.id}")
    finish_match(match, scores=[10, 50])  # bee won
    assert bot_record(bot=bee) == before
