"""The text picture for `agon replay show`."""

from __future__ import annotations

from engine.attika.render import hex_rows, map_labels
from engine.hexgrid import encode
from tests.engine.attika.support import GAME, painted, play_to_turn, put


def test_it_draws_hexes_in_offset_rows_with_r_upwards() -> None:
    labels = {encode(0, 0): " a ", encode(1, 0): " b ", encode(0, 1): " c "}
    assert hex_rows(labels) == ["   c", " a   b"]


def test_free_hexes_show_their_landscape_and_buildings_their_owner_and_group() -> None:
    state = painted({(0, 0): "M", (1, 0): "W"}, shrines=((0, 3),))
    put(state, 1, "temple", 0, 0)
    labels = map_labels(state)
    assert labels[encode(0, 0)] == "1Cm"
    assert labels[encode(1, 0)] == " W "
    assert labels[encode(2, 0)] == " . "
    assert labels[encode(0, 3)] == "(S)"


def test_it_pictures_a_whole_position() -> None:
    state = play_to_turn(4, 3, 50)
    text = GAME.render_text(state)
    assert text.startswith("Attika, 3 players, decision 50")
    assert text.count("Player ") == 3 and "(S)" in text
    for seat in state.seats:
        assert f"{len(seat.placed)} on the map" in text


def test_it_says_who_won() -> None:
    state = play_to_turn(4, 2, 10**6)
    assert GAME.is_over(state)
    assert "game over" in GAME.render_text(state)
