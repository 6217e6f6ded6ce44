"""A turn: play a tile from the hand next to a placed tile with a token on it, apply its
text, draw up to 5; the Hotel instead of a tile; passing; turn order."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import IllegalAction
from engine.megalopolis import Megalopolis
from engine.megalopolis.actions import LegalActions
from engine.megalopolis.turns import current_options
from tests.engine.megalopolis.support import (
    GAME,
    cell,
    down,
    legal,
    play,
    random_game,
    state_json,
    table,
    tokens_at,
    up,
)
from tests.engine.support import property_settings


def test_a_tile_is_played_face_up_next_to_a_placed_tile_with_a_token_on_it() -> None:
    state = table({(0, 0): up("plaza")}, hands=[["hotel"], []])
    play(state, "hotel", 1, 0)
    placed = state.board[cell(1, 0)]
    assert placed.face_up and placed.tokens == [1, 0]
    assert state.supply == [14, 15]


def test_the_legal_plays_are_the_hand_kinds_times_the_cells_next_to_the_table() -> None:
    state = table({(0, 0): up("hotel", 0)}, hands=[["hotel", "hotel", "factory"], []])
    actions = legal(state)
    assert {a["play"] for a in actions} == {"hotel", "factory"}
    assert {(a["x"], a["y"]) for a in actions} == {(0, 1), (1, 0), (0, -1), (-1, 0)}
    assert len(actions) == 2 * 4


def test_a_tile_not_touching_the_table_or_not_in_hand_is_illegal() -> None:
    state = table({(0, 0): up("plaza")}, hands=[["hotel"], []])
    before = state_json(state)
    with pytest.raises(IllegalAction, match="not legal"):
        play(state, "hotel", 2, 0)
    with pytest.raises(IllegalAction, match="not legal"):
        play(state, "bank", 1, 0)
    with pytest.raises(IllegalAction, match="not legal"):
        play(state, "hotel", 0, 0)
    assert state_json(state) == before


def test_after_the_turn_the_hand_is_refilled_to_5_and_the_next_player_plays() -> None:
    state = table({(0, 0): up("plaza")}, hands=[["hotel", "hotel"], ["hotel"]])
    play(state, "hotel", 1, 0)
    assert len(state.hands[0]) == 5
    assert GAME.current_player(state) == 1


def test_a_hand_of_5_or_more_does_not_draw() -> None:
    six = ["hotel"] * 7
    state = table({(0, 0): up("plaza")}, hands=[six, []])
    play(state, "hotel", 1, 0)
    assert len(state.hands[0]) == 6


def test_turns_go_up_the_seats_from_the_first_player() -> None:
    state = GAME.new_state(3, 4, {})
    first = state.first_player
    seats: list[int] = []
    while len(seats) < 6:
        if not state.stack:
            seats.append(GAME.current_player(state))
        GAME.apply(state, GAME.legal_actions(state)[0])
    assert seats == [(first + k) % 4 for k in range(6)]


def test_a_token_on_a_face_down_tile_turns_it_up_and_applies_its_text() -> None:
    state = table({(0, 0): down("security_guard"), (1, 0): up("factory", 1)},
                  hands=[["embassy"], []])  # fmt: skip
    play(state, "embassy", 0, 1)
    GAME.apply(state, {"tile": [0, 0]})
    assert state.board[cell(0, 0)].face_up
    assert tokens_at(state, 0, 0) == [1, 0]
    # The Security Guard now asks which tile to clear.
    assert {"tile": [1, 0]} in legal(state)


def test_a_token_on_a_face_up_tile_does_nothing_more() -> None:
    state = table({(0, 0): up("security_guard"), (1, 0): up("factory", 1)},
                  hands=[["embassy"], []])  # fmt: skip
    play(state, "embassy", 0, 1)
    GAME.apply(state, {"tile": [0, 0]})
    assert GAME.current_player(state) == 1  # the turn is over


def test_a_player_may_put_a_token_on_a_hotel_instead_of_playing_a_tile() -> None:
    """Decision #hotel-instead."""
    state = table({(0, 0): up("hotel", 1)}, hands=[["plaza"], []])
    assert {"hotel": [0, 0]} in legal(state)
    GAME.apply(state, {"hotel": [0, 0]})
    assert tokens_at(state, 0, 0) == [1, 1]
    assert len(state.hands[0]) == 5  # still refills
    assert GAME.current_player(state) == 1


def test_no_hotel_action_where_the_player_has_a_token_or_the_hotel_is_face_down() -> None:
    state = table({(0, 0): up("hotel", 0), (1, 0): down("hotel")}, hands=[["plaza"], []])
    assert not any("hotel" in a for a in legal(state))


def test_a_player_who_can_do_nothing_passes() -> None:
    state = table({(0, 0): up("plaza")}, hands=[[], ["hotel"]], deck=[])
    assert legal(state) == [{"pass": True}]
    GAME.apply(state, {"pass": True})
    assert GAME.current_player(state) == 1
    with pytest.raises(IllegalAction):
        GAME.apply(state, {"pass": True})


def test_a_player_without_tokens_passes() -> None:
    state = table({(0, 0): up("plaza")}, hands=[["hotel"], ["hotel"]], supply=[0, 15])
    assert legal(state) == [{"pass": True}]


def test_the_compact_form_round_trips(game: Megalopolis) -> None:
    state = table({(0, 0): up("hotel", 1)}, hands=[["plaza", "bank"], []])
    actions = game.legal_actions(state)
    compact = actions.compact()
    assert compact["play"]["kinds"] == ["bank", "plaza"]
    assert compact["others"] == [{"hotel": [0, 0]}]
    again = game.legal_actions_from_json(compact)
    assert list(again) == list(actions)
    assert again[-1] == {"hotel": [0, 0]} and again[0]["play"] == "bank"
    assert {"play": "plaza", "x": 0, "y": 1} in again
    assert {"play": "hotel", "x": 0, "y": 1} not in again


def test_the_legal_actions_index_like_a_list() -> None:
    actions = LegalActions([1, 2], [10, 20, 30], [("done",)])
    assert len(actions) == 7
    assert actions[-1] == {"done": True}
    assert actions[0:2] == list(actions)[0:2]
    with pytest.raises(IndexError):
        actions[7]


def test_malformed_actions_are_rejected() -> None:
    state = table({(0, 0): up("hotel", 1)}, hands=[["plaza"], []])
    malformed: list[object] = [
        None,
        "pass",
        {"play": "palace", "x": 0, "y": 1},
        {"play": "plaza", "x": "0", "y": 1},
        {"tile": [0]},
        {"tile": [0, 0], "owner": "some"},
        {"pass": False},
        {"done": 1},
        {"hotel": [0, 0], "extra": 1},
    ]
    for bad in malformed:
        with pytest.raises(IllegalAction):
            GAME.apply(state, bad)


@property_settings(10)
@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=2, max_value=6))
def test_the_kept_legal_actions_are_those_of_the_position(seed: int, players: int) -> None:
    """Kept in the state's caches until the next action is applied."""
    for state, _ in random_game(seed, players):
        fresh = LegalActions.of(current_options(state))
        assert list(GAME.legal_actions(state)) == list(fresh)
