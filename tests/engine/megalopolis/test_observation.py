"""What a player sees: the table, their own hand, counts of the rest; the Library's and
Temple's private views; a state for lookahead rebuilt from an observation."""

from __future__ import annotations

import json

import pytest

from engine.megalopolis import Megalopolis, MegalopolisState
from engine.megalopolis.components import KIND_OF_NAME
from tests.engine.megalopolis.support import (
    choose,
    down,
    play,
    random_game,
    table,
    up,
)


def midgame(seed: int = 4, players: int = 3, actions: int = 25) -> MegalopolisState:
    for index, (state, action) in enumerate(random_game(seed, players)):
        if index == actions or action is None:
            return state
    raise AssertionError("unreachable")


def test_a_player_sees_their_own_hand_and_only_the_sizes_of_the_others(
    game: Megalopolis,
) -> None:
    state = midgame()
    seen = game.observation(state, 1)
    assert seen["hand_sizes"] == [len(hand) for hand in state.hands]
    assert len(seen["hand"]) == len(state.hands[1])
    assert "hands" not in seen and "deck" not in seen and "seed" not in seen
    assert seen["deck_size"] == len(state.deck)


def test_face_down_tiles_show_no_kind(game: Megalopolis) -> None:
    state = table({(0, 0): down("capitol"), (1, 0): up("bank", 1)})
    board = game.observation(state, 0)["board"]
    assert board[0] == {"x": 0, "y": 0, "serial": 0, "face_up": False, "tokens": [0, 0]}
    assert board[1]["kind"] == "bank"


def test_unseen_counts_what_the_player_cannot_see(game: Megalopolis) -> None:
    state = table({(0, 0): down("capitol"), (1, 0): up("bank", 1)},
                  hands=[["bank"], ["plaza"]], deck=["housing"])  # fmt: skip
    unseen = game.observation(state, 0)["unseen"]
    assert unseen["capitol"] == 1 and unseen["bank"] == 4 and unseen["plaza"] == 6
    assert unseen["housing"] == 10
    assert sum(unseen.values()) == 120 - 2


def test_the_library_tiles_are_shown_to_the_looking_player_only(game: Megalopolis) -> None:
    deck = ["bank", "housing", "plaza", "stadium", "temple", "port"]
    state = table({(0, 0): up("factory")}, hands=[["library"], []], deck=deck)
    play(state, "library", 1, 0)
    mine = game.observation(state, 0)["stack"][-1]
    theirs = game.observation(state, 1)["stack"][-1]
    assert mine["looked"] == deck[:5]
    assert theirs["looked"] == [] and theirs["looked_count"] == 5
    assert game.observation(state, 1)["unseen"]["bank"] == 6


def test_the_temple_shows_the_chosen_hand_while_its_tile_is_chosen(game: Megalopolis) -> None:
    state = table({(0, 0): up("factory")}, players=3,
                  hands=[["temple"], ["bank", "port"], ["plaza"]])  # fmt: skip
    play(state, "temple", 1, 0)
    assert "hand" not in game.observation(state, 0)["stack"][-1]
    choose(state, {"player": 1})
    assert game.observation(state, 0)["stack"][-1]["hand"] == ["bank", "port"]
    assert "hand" not in game.observation(state, 2)["stack"][-1]
    assert game.observation(state, 0)["unseen"].get("port", 0) == 7
    assert game.observation(state, 2)["unseen"].get("port", 0) == 8


def test_observations_are_plain_json_throughout_a_game(game: Megalopolis) -> None:
    for state, _ in random_game(5, 4):
        for player in range(4):
            seen = game.observation(state, player)
            assert json.loads(json.dumps(seen, allow_nan=False)) == seen


@pytest.mark.parametrize(("players", "actions"), [(2, 0), (2, 30), (4, 17), (6, 40)])
def test_a_state_rebuilt_from_an_observation_offers_the_same_actions(
    game: Megalopolis, players: int, actions: int
) -> None:
    state = midgame(9, players, actions)
    player = game.current_player(state)
    seen = game.observation(state, player)
    guess = game.state_from_observation(seen)
    assert list(game.legal_actions(guess)) == list(game.legal_actions(state))
    assert game.observation(guess, player) == seen
    assert game.result(guess).scores == game.result(state).scores


def give(state: MegalopolisState, player: int, kind: str) -> None:
    """Swap a tile of that kind from the deck into the player's hand (totals unchanged)."""
    wanted = KIND_OF_NAME[kind]
    state.deck.remove(wanted)
    state.deck.append(state.hands[player].pop())
    state.hands[player] = sorted([*state.hands[player], wanted])


def test_a_rebuilt_state_keeps_the_library_and_temple_views(game: Megalopolis) -> None:
    state = game.new_state(3, 3, {})
    me = state.turn_player
    give(state, me, "library")
    game.apply(state, {"play": "library", "x": 2, "y": 0})
    guess = game.state_from_observation(game.observation(state, me))
    assert guess.stack[-1].looked == state.stack[-1].looked
    assert list(game.legal_actions(guess)) == list(game.legal_actions(state))
    other = (me + 1) % 3
    other_view = game.state_from_observation(game.observation(state, other))
    assert len(other_view.stack[-1].looked) == 5
    assert game.observation(other_view, other) == game.observation(state, other)

    state = game.new_state(4, 3, {})
    me = state.turn_player
    give(state, me, "temple")
    game.apply(state, {"play": "temple", "x": 2, "y": 0})
    victim = (me + 1) % 3
    game.apply(state, {"player": victim})
    guess = game.state_from_observation(game.observation(state, me))
    assert guess.hands[victim] == state.hands[victim]
    assert list(game.legal_actions(guess)) == list(game.legal_actions(state))
