"""The Power Station's protection, the Capitol's override, and what stays reachable.

The table: a face-up Power Station on (0, 0); on (1, 0), next to it, a shielded tile; on
(3, 0) and beyond, tiles out of its reach."""

from __future__ import annotations

import pytest

from engine.megalopolis import MegalopolisState
from engine.megalopolis.components import CAPITOL, EMBASSY
from engine.megalopolis.powers import is_shielded, reachable, shielded_cells
from engine.megalopolis.state import Frame
from tests.engine.megalopolis.support import (
    GAME,
    cell,
    choose,
    down,
    legal,
    play,
    table,
    tile,
    tokens_at,
    up,
)

TILE_CHOOSERS = ["disaster_site", "security_guard", "post_office", "transit_station"]


def shielded_table(kind: str, *, mine: bool = False) -> MegalopolisState:
    owner = 0 if mine else 1
    return table(
        {(0, 0): up("power_station"), (1, 0): up("factory", owner), (3, 0): up("factory", owner)},
        hands=[[kind], []],
    )


def offered_tiles(state: MegalopolisState) -> set[tuple[int, int]]:
    return {(a["tile"][0], a["tile"][1]) for a in legal(state) if "tile" in a}


@pytest.mark.parametrize("kind", TILE_CHOOSERS)
def test_a_power_station_and_its_neighbours_cannot_be_chosen(kind: str) -> None:
    """Decision #shield."""
    state = shielded_table(kind)
    play(state, kind, 3, 1)
    offered = offered_tiles(state)
    assert (3, 0) in offered
    assert (0, 0) not in offered and (1, 0) not in offered


@pytest.mark.parametrize("kind", ["embassy", "mausoleum", "stadium", "capitol"])
def test_adjacent_effects_cannot_reach_a_shielded_neighbour(kind: str) -> None:
    """Decision #shield."""
    state = shielded_table(kind)
    play(state, kind, 2, 0)  # touches (1, 0), shielded, and (3, 0)
    offered = offered_tiles(state)
    assert (3, 0) in offered
    assert ((1, 0) in offered) == (kind == "capitol")


def test_the_capitol_overrides_the_shield_even_on_the_power_station() -> None:
    """Decision #shield-capitol."""
    state = shielded_table("capitol")
    play(state, "capitol", 0, 1)
    assert offered_tiles(state) == {(0, 0)}
    choose(state, tile(0, 0))
    assert tokens_at(state, 0, 0) == [1, 0]


def test_bank_cannot_swap_with_a_shielded_token() -> None:
    """Decision #shield."""
    state = shielded_table("bank")
    play(state, "bank", 3, 1)
    assert legal(state) == [{"tile": [3, 0], "owner": 1}]


def test_arboretum_cannot_take_back_a_shielded_token_but_may_take_its_own() -> None:
    """Decision #shield, #shield-own-text."""
    state = shielded_table("arboretum", mine=True)
    play(state, "arboretum", 0, 1)  # itself next to the Power Station
    assert offered_tiles(state) == {(0, 1), (3, 0)}


def test_housing_cannot_put_a_token_on_a_shielded_empty_tile() -> None:
    state = table({(0, 0): up("power_station"), (1, 0): up("factory"), (3, 0): up("factory")},
                  hands=[["housing"], []])  # fmt: skip
    play(state, "housing", 3, 1)
    assert offered_tiles(state) == {(3, 0)}


def test_a_tiles_own_text_still_applies_to_it_next_to_a_power_station() -> None:
    """Decision #shield-own-text."""
    state = table({(0, 0): up("power_station"), (0, 2): up("factory", 1, 1)},
                  hands=[["stadium"], []])  # fmt: skip
    play(state, "stadium", 0, 1)
    choose(state, {"tile": [0, 2], "owner": "all"})
    assert tokens_at(state, 0, 1) == [1, 2]


def test_a_face_down_power_station_shields_nothing() -> None:
    """Decision #shield-face-down."""
    state = table({(0, 0): down("power_station"), (1, 0): up("factory", 1)},
                  hands=[["security_guard"], []])  # fmt: skip
    play(state, "security_guard", 2, 0)
    assert (1, 0) in offered_tiles(state)


def test_tiles_may_be_played_and_moved_next_to_a_power_station() -> None:
    """Decision #shield-empty-spaces."""
    state = shielded_table("post_office")
    assert {"play": "post_office", "x": 0, "y": 1} in legal(state)
    play(state, "post_office", 3, 1)
    choose(state, tile(3, 0))
    assert {"space": [0, 1]} in legal(state)


def test_the_police_hq_and_hotel_work_next_to_a_power_station() -> None:
    """Decision #shield-own-text."""
    state = table({(0, 0): up("power_station")}, hands=[["police_hq"], ["bank"]])
    play(state, "police_hq", 1, 0)
    assert tokens_at(state, 1, 0) == [1, 1]
    state = table({(0, 0): up("power_station"), (1, 0): up("hotel")}, hands=[["bank"], []])
    GAME.apply(state, {"hotel": [1, 0]})
    assert tokens_at(state, 1, 0) == [1, 0]


def test_the_one_shield_check_sees_stations_neighbours_own_tiles_and_the_capitol() -> None:
    state = table({(0, 0): up("power_station"), (1, 0): up("embassy"), (2, 0): up("factory")})
    embassy = Frame(EMBASSY, source=1)
    other = Frame(EMBASSY, source=2)
    assert shielded_cells(state, other) == {cell(0, 0), cell(1, 0), cell(0, 1), cell(-1, 0),
                                            cell(0, -1)}  # fmt: skip
    assert is_shielded(state, cell(0, 0), other)
    assert is_shielded(state, cell(1, 0), other)
    assert not is_shielded(state, cell(1, 0), embassy)  # its own tile
    assert not is_shielded(state, cell(2, 0), other)
    assert not is_shielded(state, cell(0, 1), other)  # an empty cell
    assert not is_shielded(state, cell(0, 0), Frame(CAPITOL, source=9))
    assert reachable(state, [cell(0, 0), cell(1, 0), cell(2, 0)], other) == [cell(2, 0)]
