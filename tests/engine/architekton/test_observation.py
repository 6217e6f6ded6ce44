"""What a player sees: the whole table, and not the order of the face-down piles."""

from __future__ import annotations

import json

import pytest

from engine.architekton import Architekton, ArchitektonState
from engine.architekton.components import TERRAINS
from tests.engine.architekton.support import random_game


def midgame(seed: int = 11, actions: int = 12) -> ArchitektonState:
    for index, (state, action) in enumerate(random_game(seed)):
        if index == actions or action is None:
            return state
    raise AssertionError("unreachable")


def test_it_says_whose_view_and_whose_turn_it_is(game: Architekton) -> None:
    state = midgame()
    seen = game.observation(state, 1)
    assert seen["game"] == "architekton"
    assert (seen["player"], seen["players"], seen["turn"]) == (1, 2, state.turn)
    assert seen["current_player"] == game.current_player(state)


def test_it_shows_the_board_display_points_and_houses(game: Architekton) -> None:
    state = midgame()
    seen = game.observation(state, 0)
    assert seen["points"] == state.points
    assert seen["houses_in_supply"] == state.supply
    assert [b["tile"] for b in seen["display"]["buildings"]] == state.display_buildings
    assert seen["display"]["landscapes"] == [TERRAINS[t] for t in state.display_landscapes]
    assert len(seen["board"]) == len(state.landscapes) + len(state.buildings)
    houses = {(t["x"], t["y"]): t["house"] for t in seen["board"] if t["kind"] == "building"}
    assert sum(1 for owner in houses.values() if owner is not None) == len(state.houses)


def test_the_unseen_tiles_are_counted_but_their_order_is_hidden(game: Architekton) -> None:
    state = midgame()
    seen = game.observation(state, 0)
    assert seen["unseen_buildings"] == sorted(state.building_pile + state.reserve_buildings)
    assert sum(seen["unseen_landscapes"].values()) == len(state.landscape_pile) + len(
        state.reserve_landscapes
    )
    other = game.copy_state(state)
    mixed = list(reversed(other.building_pile + other.reserve_buildings))
    other.reserve_buildings, other.building_pile = mixed[:4], mixed[4:]
    lands = list(reversed(other.landscape_pile + other.reserve_landscapes))
    other.reserve_landscapes, other.landscape_pile = lands[:4], lands[4:]
    other.seed += 1
    for player in (0, 1):
        assert game.observation(other, player) == game.observation(state, player)


def test_both_players_see_the_same_table(game: Architekton) -> None:
    state = midgame()
    views = [game.observation(state, p) for p in (0, 1)]
    for view in views:
        view.pop("player")
    assert views[0] == views[1]


def test_observations_are_plain_json_throughout_a_game(game: Architekton) -> None:
    for state, _ in random_game(5):
        seen = game.observation(state, game.current_player(state))
        assert json.loads(json.dumps(seen, allow_nan=False)) == seen


@pytest.mark.parametrize("actions", [0, 5, 12, 20])
def test_a_state_rebuilt_from_an_observation_offers_the_same_actions(
    game: Architekton, actions: int
) -> None:
    state = midgame(21, actions)
    player = game.current_player(state)
    seen = game.observation(state, player)
    guess = game.state_from_observation(seen)
    assert list(game.legal_actions(guess)) == list(game.legal_actions(state))
    assert game.observation(guess, player) == seen
    assert game.result(guess) == game.result(state)


def test_a_pending_decision_is_shown_to_both(game: Architekton) -> None:
    for state, _ in random_game(3):
        if state.pending:
            for player in (0, 1):
                assert game.observation(state, player)["pending"] == [
                    d.to_json() for d in state.pending
                ]
            return
    pytest.fail("no decision in this fixed game (seed 3): pick a seed that has one")
