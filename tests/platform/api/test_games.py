"""GET /api/games/: the games of the engine's registry, for anybody."""

from __future__ import annotations

from rest_framework.test import APIClient

from engine.registry import game_ids, get_game


def test_it_lists_every_game_with_its_player_counts_and_options(anonymous: APIClient) -> None:
    response = anonymous.get("/api/games/")

    assert response.status_code == 200
    games = {game["id"]: game for game in response.json()["results"]}
    assert sorted(games) == game_ids()
    akropolis = get_game("akropolis")
    listed = games["akropolis"]
    assert listed["name"] == akropolis.name
    assert listed["player_counts"] == list(akropolis.player_counts)
    assert listed["rules_url"] == "http://testserver/games/akropolis/rules/"
    assert [option["name"] for option in listed["options"]] == [
        option.name for option in akropolis.options
    ]
    for option, spec in zip(listed["options"], akropolis.options, strict=True):
        assert option == {
            "name": spec.name,
            "default": spec.default,
            "help": spec.help,
            "player_counts": list(spec.player_counts),
        }


def test_signed_in_users_see_the_same_list(alice_client: APIClient, anonymous: APIClient) -> None:
    assert alice_client.get("/api/games/").json() == anonymous.get("/api/games/").json()
