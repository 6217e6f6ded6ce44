"""The text picture of a position, for `agon replay show`."""

from __future__ import annotations

from engine.akropolis import Akropolis
from engine.akropolis.city import City
from engine.akropolis.components import HOUSE, PLAZA, QUARRY
from engine.akropolis.render import hex_label, render_city
from tests.engine.support import play_to_turn


def test_hex_labels_give_kind_level_and_plaza_star() -> None:
    assert hex_label(2, HOUSE) == "H2 "
    assert hex_label(1, PLAZA["garden"]) == "g1*"
    assert hex_label(3, QUARRY) == "q3 "


def test_the_starting_city_draws_its_four_hexes() -> None:
    rows = render_city(City.starting())
    assert "".join(rows).count("q1") == 3
    assert "".join(rows).count("h1*") == 1
    assert len(rows) == 3


def test_a_position_shows_the_turn_the_site_the_stacks_and_every_city(game: Akropolis) -> None:
    state = game.new_state(5, 3, {})
    text = game.render_text(state)
    assert text.startswith("Akropolis, 3 players, turn 0, player 0 to move\n")
    assert "Construction Site: [0] #" in text
    assert "Stacks left: 11" in text
    for player, stones in enumerate([1, 2, 3]):
        assert f"Player {player}: {stones} stones, {stones} points" in text


def test_a_finished_game_says_so(game: Akropolis) -> None:
    state = play_to_turn(5, 2, 10**6)
    result = game.result(state)
    text = game.render_text(state)
    assert "(game over)" in text
    assert "Stacks left: 0" in text
    for player, score in enumerate(result.scores):
        assert f"Player {player}: {state.stones[player]} stones, {score} points" in text
