"""What a player sees: everything on the table, and not the order of the stacks."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.akropolis import Akropolis, AkropolisState
from engine.akropolis.components import COLORS, KINDS, STARS_OF_CODE, TILES, describe_hex, hex_code
from engine.hexgrid import encode
from tests.engine.support import GAME, play_to_turn, random_game

RULES_HEX_KEYS = {"q", "r", "level", "kind", "color", "stars"}


@pytest.fixture
def midgame() -> AkropolisState:
    state = play_to_turn(33, 3, 22, {"gardens": True})
    assert not GAME.is_over(state)
    return state


def test_it_says_whose_view_and_whose_turn_it_is(game: Akropolis, midgame: AkropolisState) -> None:
    seen = game.observation(midgame, 2)
    assert seen["game"] == "akropolis"
    assert seen["player"] == 2
    assert seen["players"] == 3
    assert seen["turn"] == 22
    assert seen["current_player"] == game.current_player(midgame) == 22 % 3
    assert seen["options"] == midgame.options


def test_it_shows_every_players_stones(game: Akropolis, midgame: AkropolisState) -> None:
    assert game.observation(midgame, 0)["stones"] == midgame.stones


def test_it_shows_every_city_in_the_rules_json_hex_form(
    game: Akropolis, midgame: AkropolisState
) -> None:
    seen = game.observation(midgame, 1)
    assert len(seen["cities"]) == 3
    for city, shown in zip(midgame.cities, seen["cities"], strict=True):
        assert shown["tiles"] == city.tiles
        top = {}
        for h in shown["hexes"]:
            assert RULES_HEX_KEYS >= set(h) - {"tile"} >= {"q", "r", "level", "kind"}
            assert h["kind"] in KINDS
            assert ("color" in h) == (h["kind"] != "quarry")
            assert ("stars" in h) == (h["kind"] == "plaza")
            code = hex_code(h["kind"], h.get("color"))
            top[encode(h["q"], h["r"])] = (h["level"], code, h.get("stars", 0))
            assert h["tile"] == city.tile_at[encode(h["q"], h["r"])]
        assert top == city.top


def test_it_shows_the_site_with_costs_and_tile_hexes(
    game: Akropolis, midgame: AkropolisState
) -> None:
    site = game.observation(midgame, 0)["site"]
    assert [entry["tile"] for entry in site] == midgame.site
    assert [entry["position"] for entry in site] == list(range(len(midgame.site)))
    assert [entry["cost"] for entry in site] == list(range(len(midgame.site)))
    for entry in site:
        codes = [hex_code(h["kind"], h.get("color")) for h in entry["hexes"]]
        assert codes == list(TILES[entry["tile"]].hexes)
        for h, code in zip(entry["hexes"], codes, strict=True):
            assert h.get("stars", 0) == STARS_OF_CODE[code]
            assert h.get("color") in (*COLORS, None)
            assert (h["kind"], h.get("color")) == describe_hex(code)


def test_it_shows_how_many_stacks_are_left(game: Akropolis, midgame: AkropolisState) -> None:
    assert game.observation(midgame, 0)["stacks_left"] == len(midgame.stacks) > 0


def test_it_shows_which_tiles_are_still_unseen_but_not_their_order(
    game: Akropolis, midgame: AkropolisState
) -> None:
    unseen = game.observation(midgame, 0)["stack_tiles"]
    assert unseen == sorted(t for stack in midgame.stacks for t in stack)


def test_the_order_of_the_stacks_is_hidden(game: Akropolis, midgame: AkropolisState) -> None:
    other = game.copy_state(midgame)
    other.stacks = [list(reversed(stack)) for stack in reversed(other.stacks)]
    assert other.stacks != midgame.stacks
    for player in range(3):
        assert game.observation(other, player) == game.observation(midgame, player)


def test_the_seed_that_fixes_the_stacks_is_hidden(game: Akropolis, midgame: AkropolisState) -> None:
    other = game.copy_state(midgame)
    other.seed = midgame.seed + 1
    assert game.observation(other, 0) == game.observation(midgame, 0)


def test_players_see_the_same_table(game: Akropolis, midgame: AkropolisState) -> None:
    views: list[dict[str, Any]] = [game.observation(midgame, p) for p in range(3)]
    for view in views:
        view.pop("player")
    assert views[0] == views[1] == views[2]


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {"markets": True}), (4, {})])
def test_observations_are_plain_json_throughout_a_game(
    game: Akropolis, players: int, options: dict[str, bool]
) -> None:
    for state, _ in random_game(5, players, options):
        seen = game.observation(state, state.turn % players)
        assert json.loads(json.dumps(seen, allow_nan=False)) == seen


def test_the_observation_does_not_share_lists_with_the_state(
    game: Akropolis, midgame: AkropolisState
) -> None:
    seen = game.observation(midgame, 0)
    seen["stones"].append(99)
    seen["cities"][0]["hexes"].clear()
    assert len(midgame.stones) == 3
    assert game.observation(midgame, 0)["cities"][0]["hexes"]


def test_a_state_rebuilt_from_an_observation_offers_the_same_actions(
    game: Akropolis, midgame: AkropolisState
) -> None:
    player = game.current_player(midgame)
    seen = game.observation(midgame, player)
    guess = game.state_from_observation(seen)
    assert list(game.legal_actions(guess)) == list(game.legal_actions(midgame))
    assert game.observation(guess, player) == seen
