"""Setup: reserve, starting landscapes, display, houses and points, all from the seed."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.architekton import Architekton
from engine.core import InvalidOptions
from tests.engine.architekton.support import GAME, cell, state_json


def test_four_tiles_of_each_pile_form_the_reserve() -> None:
    state = GAME.new_state(1, 2, {})
    assert len(state.reserve_buildings) == 4
    assert len(state.reserve_landscapes) == 4


def test_two_landscapes_start_in_the_middle_touching_at_a_corner() -> None:
    state = GAME.new_state(1, 2, {})
    assert set(state.landscapes) == {cell(0, 0), cell(1, 1)}
    assert not state.buildings


def test_three_buildings_and_three_landscapes_are_turned_up() -> None:
    state = GAME.new_state(1, 2, {})
    assert len(state.display_buildings) == 3
    assert len(state.display_landscapes) == 3
    assert len(state.building_pile) == 22 - 4 - 3
    assert len(state.landscape_pile) == 24 - 4 - 2 - 3


def test_every_tile_is_somewhere_exactly_once() -> None:
    state = GAME.new_state(99, 2, {})
    buildings = state.building_pile + state.reserve_buildings + state.display_buildings
    assert sorted(buildings) == list(range(1, 23))
    landscapes = (
        state.landscape_pile
        + state.reserve_landscapes
        + state.display_landscapes
        + list(state.landscapes.values())
    )
    assert Counter(landscapes) == dict.fromkeys(range(4), 6)


def test_each_player_has_12_houses_and_1_point_and_seat_0_begins() -> None:
    """Decision #first-player."""
    state = GAME.new_state(1, 2, {})
    assert state.supply == [12, 12]
    assert state.points == [1, 1]
    assert GAME.current_player(state) == 0


def test_the_seed_decides_the_setup() -> None:
    assert state_json(GAME.new_state(5, 2, {})) == state_json(GAME.new_state(5, 2, {}))
    assert state_json(GAME.new_state(5, 2, {})) != state_json(GAME.new_state(6, 2, {}))


@pytest.mark.parametrize("players", [1, 3, 4, 2.0, True])
def test_it_is_for_exactly_two_players(game: Architekton, players: object) -> None:
    with pytest.raises(InvalidOptions, match="exactly 2 players"):
        game.new_state(1, players, {})  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "1"])
def test_the_seed_must_be_a_64_bit_integer(game: Architekton, seed: object) -> None:
    with pytest.raises(InvalidOptions, match="seed"):
        game.new_state(seed, 2, {})  # type: ignore[arg-type]


def test_there_are_no_options(game: Architekton) -> None:
    assert game.options == ()
    with pytest.raises(InvalidOptions, match="unknown option"):
        game.new_state(1, 2, {"all_tiles": True})
