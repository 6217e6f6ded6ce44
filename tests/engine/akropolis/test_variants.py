"""The scoring variants: each doubles the value of a district meeting an extra condition,
never that of a district failing its basic one; each is checked on and off."""

from __future__ import annotations

import pytest

from engine.akropolis import Akropolis
from engine.akropolis.city import City
from engine.akropolis.components import BARRACKS, GARDEN, HOUSE, MARKET, PLAZA, QUARRY, TEMPLE
from engine.akropolis.scoring import score_surface
from engine.hexgrid import DIRECTIONS
from tests.engine.support import surface

Cells = dict[tuple[int, int], tuple[int, int]]

FAR = (20, 20)


def ring(q: int, r: int) -> list[tuple[int, int]]:
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def value(cells: Cells, color: str, *variants: str) -> int:
    return score_surface(surface(cells), 0, variants).colors[color].value


def on_and_off(cells: Cells, color: str, variant: str) -> tuple[int, int]:
    return value(cells, color, variant), value(cells, color)


def lake_beside(district: int, level: int = 1) -> Cells:
    """A district at (1, 0) next to the lake (0, 0): an empty cell enclosed by quarries.
    The district's other neighbours are (2, 0), (2, -1), (1, -1), (0, 1), (1, 1)."""
    cells: Cells = dict.fromkeys(ring(0, 0) + ring(1, 0), (1, QUARRY))
    del cells[(0, 0)]
    cells[(1, 0)] = (level, district)
    return cells


# --- houses ----------------------------------------------------------------------------


def houses_row(levels: list[int]) -> Cells:
    cells: Cells = {(q, 0): (level, HOUSE) for q, level in enumerate(levels)}
    cells[FAR] = (1, PLAZA["house"])
    return cells


def test_houses_doubles_a_scoring_group_worth_10() -> None:
    assert on_and_off(houses_row([1] * 10), "house", "houses") == (20, 10)
    assert on_and_off(houses_row([2] * 6), "house", "houses") == (24, 12)


def test_houses_does_not_double_a_group_worth_9() -> None:
    assert on_and_off(houses_row([1] * 9), "house", "houses") == (9, 9)
    assert on_and_off(houses_row([1, 1, 1, 2, 2, 2]), "house", "houses") == (9, 9)


def test_houses_does_not_double_a_smaller_group_worth_10() -> None:
    """Decision #houses-variant."""
    cells = houses_row([1] * 6)
    cells.update({(q, 3): (2, HOUSE) for q in range(5)})
    assert on_and_off(cells, "house", "houses") == (6, 6)


# --- markets ---------------------------------------------------------------------------


def test_markets_doubles_a_market_next_to_a_market_plaza() -> None:
    cells: Cells = {(0, 0): (2, MARKET), (1, 0): (1, PLAZA["market"])}
    assert on_and_off(cells, "market", "markets") == (4, 2)


def test_markets_does_not_double_a_market_away_from_market_plazas() -> None:
    cells: Cells = {(0, 0): (2, MARKET), (2, 0): (1, PLAZA["market"]), (0, 1): (1, PLAZA["house"])}
    assert on_and_off(cells, "market", "markets") == (2, 2)


def test_markets_does_not_save_a_market_next_to_another_market() -> None:
    """Decision #variant-basic-condition."""
    cells: Cells = {(0, 0): (2, MARKET), (1, 0): (1, PLAZA["market"]), (0, 1): (1, MARKET)}
    assert on_and_off(cells, "market", "markets") == (0, 0)


# --- barracks --------------------------------------------------------------------------


def barracks_with_open_sides(open_sides: int, level: int = 1) -> Cells:
    """A barracks at (0, 0) with `open_sides` empty neighbours, all opening to the outside."""
    cells: Cells = dict.fromkeys(ring(0, 0)[open_sides:], (1, QUARRY))
    cells[(0, 0)] = (level, BARRACKS)
    return cells


@pytest.mark.parametrize("open_sides", [3, 4])
def test_barracks_doubles_a_barracks_with_3_or_4_empty_outside_neighbours(open_sides: int) -> None:
    cells = barracks_with_open_sides(open_sides, level=2)
    assert on_and_off(cells, "barracks", "barracks") == (4, 2)


@pytest.mark.parametrize("open_sides", [1, 2])
def test_barracks_does_not_double_a_barracks_with_fewer_empty_neighbours(open_sides: int) -> None:
    cells = barracks_with_open_sides(open_sides, level=2)
    assert on_and_off(cells, "barracks", "barracks") == (2, 2)


def test_barracks_does_not_count_a_lake_among_the_empty_neighbours() -> None:
    # Two outside neighbours, (2, 0) and (2, -1), and the lake (0, 0): not three.
    """Decision #barracks-variant."""
    cells = lake_beside(BARRACKS)
    del cells[(2, 0)], cells[(2, -1)]
    assert on_and_off(cells, "barracks", "barracks") == (1, 1)
    del cells[(1, -1)]
    assert on_and_off(cells, "barracks", "barracks") == (2, 1)


def test_barracks_does_not_save_a_barracks_next_only_to_a_lake() -> None:
    """Decision #variant-basic-condition."""
    assert on_and_off(lake_beside(BARRACKS), "barracks", "barracks") == (0, 0)


# --- temples ---------------------------------------------------------------------------


def surrounded_temple(level: int) -> Cells:
    cells: Cells = dict.fromkeys(ring(0, 0), (1, QUARRY))
    cells[(0, 0)] = (level, TEMPLE)
    return cells


@pytest.mark.parametrize("level", [2, 3])
def test_temples_doubles_a_temple_on_level_2_or_higher(level: int) -> None:
    assert on_and_off(surrounded_temple(level), "temple", "temples") == (2 * level, level)


def test_temples_does_not_double_a_temple_on_level_1() -> None:
    assert on_and_off(surrounded_temple(1), "temple", "temples") == (1, 1)


def test_temples_does_not_save_a_high_temple_that_is_not_surrounded() -> None:
    """Decision #variant-basic-condition."""
    cells = surrounded_temple(3)
    del cells[(1, 0)]
    assert on_and_off(cells, "temple", "temples") == (0, 0)


# --- gardens ---------------------------------------------------------------------------


@pytest.mark.parametrize("level", [1, 2])
def test_gardens_doubles_a_garden_next_to_a_lake(level: int) -> None:
    assert on_and_off(lake_beside(GARDEN, level), "garden", "gardens") == (2 * level, level)


def test_gardens_doubles_a_garden_next_to_a_lake_of_several_spaces() -> None:
    cells: Cells = dict.fromkeys(ring(0, 0) + ring(-1, 0) + ring(1, 0), (1, QUARRY))
    del cells[(0, 0)], cells[(-1, 0)]
    cells[(1, 0)] = (1, GARDEN)
    assert on_and_off(cells, "garden", "gardens") == (2, 1)


def test_gardens_does_not_double_a_garden_next_to_outside_empty_space() -> None:
    cells: Cells = {(0, 0): (2, GARDEN), (1, 0): (1, QUARRY)}
    assert on_and_off(cells, "garden", "gardens") == (2, 2)


def test_gardens_does_not_double_a_surrounded_garden() -> None:
    cells: Cells = dict.fromkeys(ring(0, 0), (1, QUARRY))
    cells[(0, 0)] = (1, GARDEN)
    assert on_and_off(cells, "garden", "gardens") == (1, 1)


def test_gardens_stops_doubling_once_the_lake_opens() -> None:
    cells = lake_beside(GARDEN)
    del cells[(-1, 0)]
    assert on_and_off(cells, "garden", "gardens") == (1, 1)


# --- each variant only touches its own colour, and the options reach the scoring -------


def test_a_variant_changes_only_its_own_colour() -> None:
    cells = lake_beside(GARDEN)
    cells.update({(q, 6): (1, HOUSE) for q in range(10)})
    cells[(10, 6)] = (2, TEMPLE)
    for variant in ("houses", "markets", "barracks", "temples"):
        assert value(cells, "garden", variant) == 1
    for variant in ("markets", "barracks", "temples", "gardens"):
        assert value(cells, "house", variant) == 10


def doubling_city(variant: str) -> Cells:
    return {
        "houses": houses_row([1] * 10),
        "markets": {(0, 0): (1, MARKET), (1, 0): (1, PLAZA["market"])},
        "barracks": {**barracks_with_open_sides(3), FAR: (1, PLAZA["barracks"])},
        "temples": {**surrounded_temple(2), FAR: (1, PLAZA["temple"])},
        "gardens": {**lake_beside(GARDEN), FAR: (1, PLAZA["garden"])},
    }[variant]


@pytest.mark.parametrize("variant", ["houses", "markets", "barracks", "temples", "gardens"])
def test_the_match_option_switches_the_variant_on(game: Akropolis, variant: str) -> None:
    totals = []
    for on in (True, False):
        state = game.new_state(1, 2, {variant: on})
        city = City()
        city.top = surface(doubling_city(variant))
        state.cities[0] = city
        state.stones[0] = 0
        totals.append(game.city_score(state, 0).total)
    assert totals[0] == 2 * totals[1] > 0
