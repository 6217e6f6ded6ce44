"""Scoring on hand-built surfaces (engine.akropolis.scoring) and the final ranking."""

from __future__ import annotations

from typing import Any

import pytest

from engine.akropolis import Akropolis, AkropolisState
from engine.akropolis.city import City
from engine.akropolis.components import (
    BARRACKS,
    DISTRICT,
    GARDEN,
    HOUSE,
    MARKET,
    PLAZA,
    QUARRY,
    TEMPLE,
    TILES,
)
from engine.akropolis.scoring import CityScore, score_surface
from engine.core import competition_ranks
from engine.hexgrid import DIRECTIONS, encode
from tests.engine.support import action, bring_to_site, build_city, surface

Cells = dict[tuple[int, int], tuple[int, int]]

HOUSE_PLAZA = PLAZA["house"]
MARKET_PLAZA = PLAZA["market"]
BARRACKS_PLAZA = PLAZA["barracks"]
TEMPLE_PLAZA = PLAZA["temple"]
GARDEN_PLAZA = PLAZA["garden"]

FAR = (20, 20)
"""A cell far from every district of these tests, for a plaza that touches nothing."""


def ring(q: int, r: int) -> list[tuple[int, int]]:
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def score(cells: Cells, stones: int = 0) -> CityScore:
    return score_surface(surface(cells), stones)


def points(cells: Cells, color: str) -> int:
    return score(cells).colors[color].points


def value(cells: Cells, color: str) -> int:
    return score(cells).colors[color].value


def enclosed_lake_around_barracks(district: int) -> Cells:
    """A district at (1, 0) whose only empty neighbour is (0, 0), a lake enclosed by the city
    (every other cell here is a quarry)."""
    cells: Cells = dict.fromkeys(ring(0, 0) + ring(1, 0), (1, QUARRY))
    del cells[(0, 0)]
    cells[(1, 0)] = (1, district)
    return cells


# --- the scoring formula ---------------------------------------------------------------


def test_a_colour_scores_its_value_times_its_plaza_stars() -> None:
    cells: Cells = {(0, 0): (1, GARDEN), (1, 0): (1, GARDEN), FAR: (1, GARDEN_PLAZA)}
    assert score(cells).colors["garden"].value == 2
    assert score(cells).colors["garden"].stars == 3
    assert points(cells, "garden") == 6


def test_a_district_is_worth_its_level() -> None:
    cells: Cells = {(0, 0): (1, GARDEN), (5, 0): (2, GARDEN), (9, 0): (3, GARDEN)}
    assert value(cells, "garden") == 6


def test_plaza_stars_add_up() -> None:
    cells: Cells = {(0, 0): (1, MARKET_PLAZA), (4, 0): (1, MARKET_PLAZA), (8, 0): (1, MARKET)}
    assert score(cells).colors["market"].stars == 4
    assert points(cells, "market") == 4


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_plazas_are_not_worth_more_for_being_high(level: int) -> None:
    cells: Cells = {(0, 0): (1, GARDEN), FAR: (level, GARDEN_PLAZA)}
    assert score(cells).colors["garden"].stars == 3
    assert points(cells, "garden") == 3


@pytest.mark.parametrize("color", ["house", "market", "barracks", "temple", "garden"])
def test_a_colour_without_a_plaza_scores_nothing(color: str) -> None:
    # Every district here meets its condition: alone, touching the outside, or surrounded
    # for the temple (by quarries).
    cells: Cells = dict.fromkeys(ring(0, 0), (1, QUARRY))
    cells[(0, 0)] = (1, DISTRICT[color])
    cells[(9, 0)] = (1, DISTRICT[color]) if color != "temple" else (1, QUARRY)
    result = score(cells)
    assert result.colors[color].value > 0
    assert result.colors[color].points == 0
    assert result.total == 0


def test_quarries_score_nothing() -> None:
    cells: Cells = {(0, 0): (3, QUARRY), (1, 0): (2, QUARRY), FAR: (1, GARDEN_PLAZA)}
    assert score(cells).total == 0


def test_each_stone_is_worth_a_point() -> None:
    assert score({}, stones=7).total == 7
    assert score({(0, 0): (1, GARDEN), (1, 0): (1, GARDEN_PLAZA)}, stones=4).total == 3 + 4


def test_the_total_is_the_stones_plus_every_colours_points() -> None:
    cells: Cells = {
        (0, 0): (1, GARDEN),
        (1, 0): (1, GARDEN_PLAZA),
        (5, 0): (2, MARKET),
        (5, 2): (1, MARKET_PLAZA),
        (9, 0): (1, HOUSE),
        (9, 2): (1, HOUSE_PLAZA),
    }
    result = score(cells, stones=2)
    assert [result.colors[c].points for c in ("garden", "market", "house")] == [3, 4, 1]
    assert result.total == 3 + 4 + 1 + 2


def test_the_score_serializes_per_colour() -> None:
    result = score({(0, 0): (2, GARDEN), (1, 0): (1, GARDEN_PLAZA)}, stones=1)
    data: Any = result.to_json()
    assert data["total"] == 7
    assert data["stones"] == 1
    assert data["colors"]["garden"] == {"value": 2, "stars": 3, "points": 6}
    assert data["colors"]["temple"] == {"value": 0, "stars": 0, "points": 0}


# --- only what is visible counts -------------------------------------------------------


def test_covered_hexes_no_longer_count(game: Akropolis, two_player_state: AkropolisState) -> None:
    state = two_player_state
    state.cities[0] = build_city(
        [
            (0, 0, 1, GARDEN, 100),
            (1, 0, 1, GARDEN, 101),
            (1, -1, 1, GARDEN_PLAZA, 101),
            (0, 1, 1, GARDEN_PLAZA, 100),
        ]
    )
    state.stones[0] = 0
    assert game.city_score(state, 0).colors["garden"].points == 2 * 6
    tile = next(t for t in TILES.values() if t.min_players == 2 and QUARRY not in t.hexes)
    bring_to_site(state, tile.id)
    game.apply(state, action(0, 0, 0, 0))
    gardens = 2 * tile.hexes.count(GARDEN)
    stars = 3 + 3 * tile.hexes.count(GARDEN_PLAZA)
    assert game.city_score(state, 0).colors["garden"].points == gardens * stars


# --- houses ----------------------------------------------------------------------------


def test_the_worked_example_of_the_rules_scores_27() -> None:
    # Five houses on level 1 and two on level 2 in the largest group (value 9), three
    # house-plaza stars; a smaller group of two houses elsewhere does not count.
    levels = [1, 1, 1, 1, 1, 2, 2]
    cells: Cells = {(q, 0): (level, HOUSE) for q, level in enumerate(levels)}
    cells.update({(q, 2): (1, HOUSE_PLAZA) for q in (0, 2, 4)})
    cells.update({(10, 0): (3, HOUSE), (11, 0): (3, HOUSE)})
    result = score(cells)
    assert result.colors["house"].value == 9
    assert result.colors["house"].stars == 3
    assert result.colors["house"].points == 27
    assert result.total == 27


def test_only_the_largest_house_group_scores_even_if_a_smaller_one_is_worth_more() -> None:
    """Decision #house-group-tie."""
    cells: Cells = {(q, 0): (1, HOUSE) for q in range(4)}
    cells.update({(q, 3): (3, HOUSE) for q in range(3)})
    cells[FAR] = (1, HOUSE_PLAZA)
    assert value(cells, "house") == 4


def test_between_house_groups_of_equal_size_the_higher_value_scores() -> None:
    """Decision #house-group-tie."""
    cells: Cells = {(q, 0): (1, HOUSE) for q in range(3)}
    cells.update({(0, 3): (2, HOUSE), (1, 3): (1, HOUSE), (2, 3): (1, HOUSE)})
    cells[FAR] = (1, HOUSE_PLAZA)
    assert value(cells, "house") == 4


def test_house_groups_connect_by_edges_only_through_houses() -> None:
    # (0, 0) and (2, 0) are joined only through a house plaza: two groups of one.
    cells: Cells = {(0, 0): (1, HOUSE), (1, 0): (1, HOUSE_PLAZA), (2, 0): (2, HOUSE)}
    assert value(cells, "house") == 2
    cells[(1, 0)] = (1, HOUSE)
    assert value(cells, "house") == 4


def test_houses_touching_diagonally_are_one_group_on_a_hex_grid() -> None:
    # (0, 0) and (1, -1) share an edge (direction 1).
    cells: Cells = {(0, 0): (1, HOUSE), (1, -1): (1, HOUSE), (3, 3): (1, HOUSE)}
    assert value(cells, "house") == 2


# --- markets ---------------------------------------------------------------------------


def test_a_market_alone_scores() -> None:
    cells: Cells = {(0, 0): (2, MARKET), FAR: (1, MARKET_PLAZA)}
    assert value(cells, "market") == 2


def test_markets_next_to_each_other_score_nothing() -> None:
    cells: Cells = {(0, 0): (2, MARKET), (1, 0): (1, MARKET), (5, 0): (1, MARKET)}
    assert value(cells, "market") == 1


def test_a_market_plaza_next_to_a_market_is_not_a_market() -> None:
    """Decision #market-plaza."""
    cells: Cells = {(0, 0): (1, MARKET), (1, 0): (1, MARKET_PLAZA), (0, 1): (1, MARKET_PLAZA)}
    assert value(cells, "market") == 1
    assert points(cells, "market") == 4


def test_other_districts_around_a_market_do_not_matter() -> None:
    cells: Cells = {cell: (1, HOUSE) for cell in ring(0, 0)}
    cells[(0, 0)] = (3, MARKET)
    assert value(cells, "market") == 3


# --- barracks --------------------------------------------------------------------------


def test_a_barracks_on_the_edge_of_the_city_scores() -> None:
    cells: Cells = {(0, 0): (2, BARRACKS), (1, 0): (1, QUARRY), FAR: (1, BARRACKS_PLAZA)}
    assert value(cells, "barracks") == 2


def test_a_barracks_with_no_empty_neighbour_scores_nothing() -> None:
    cells: Cells = dict.fromkeys(ring(0, 0), (1, QUARRY))
    cells[(0, 0)] = (1, BARRACKS)
    assert value(cells, "barracks") == 0


def test_a_barracks_next_only_to_an_enclosed_lake_scores_nothing() -> None:
    """Decision #lake."""
    cells = enclosed_lake_around_barracks(BARRACKS)
    assert value(cells, "barracks") == 0


def test_a_barracks_scores_once_its_empty_neighbour_opens_to_the_outside() -> None:
    cells = enclosed_lake_around_barracks(BARRACKS)
    del cells[(-1, 0)]
    assert value(cells, "barracks") == 1


def test_a_long_channel_to_the_outside_is_still_the_outside() -> None:
    # A barracks at (0, 0) whose only empty neighbour (-1, 0) leads out through (-2, 0),
    # (-3, 0), ... with walls on both sides.
    """Decision #lake."""
    cells: Cells = dict.fromkeys(ring(0, 0), (1, QUARRY))
    del cells[(-1, 0)]
    for q in range(-1, -5, -1):
        cells[(q, -1)] = (1, QUARRY)
        cells[(q - 1, 1)] = (1, QUARRY)
    cells[(0, 0)] = (1, BARRACKS)
    assert value(cells, "barracks") == 1


# --- temples ---------------------------------------------------------------------------


def test_a_surrounded_temple_scores() -> None:
    cells: Cells = dict.fromkeys(ring(0, 0), (1, QUARRY))
    cells[(1, 0)] = (1, TEMPLE_PLAZA)
    cells[(0, 0)] = (2, TEMPLE)
    assert value(cells, "temple") == 2


@pytest.mark.parametrize("missing", range(6))
def test_a_temple_with_an_empty_neighbour_scores_nothing(missing: int) -> None:
    cells: Cells = dict.fromkeys(ring(0, 0), (1, QUARRY))
    del cells[ring(0, 0)[missing]]
    cells[(0, 0)] = (2, TEMPLE)
    assert value(cells, "temple") == 0


def test_a_temple_next_to_an_enclosed_lake_scores_nothing() -> None:
    """Decision #lake."""
    assert value(enclosed_lake_around_barracks(TEMPLE), "temple") == 0


def test_any_hex_at_any_level_surrounds_a_temple() -> None:
    """Decision #lake."""
    kinds = [QUARRY, HOUSE_PLAZA, MARKET, TEMPLE, GARDEN, BARRACKS]
    cells: Cells = {
        cell: (1 + i % 3, code)
        for i, (cell, code) in enumerate(zip(ring(0, 0), kinds, strict=True))
    }
    cells[(0, 0)] = (1, TEMPLE)
    assert value(cells, "temple") == 1


# --- gardens ---------------------------------------------------------------------------


def test_a_garden_always_scores() -> None:
    alone: Cells = {(0, 0): (2, GARDEN)}
    surrounded: Cells = dict.fromkeys(ring(0, 0), (1, GARDEN))
    surrounded[(0, 0)] = (3, GARDEN)
    assert value(alone, "garden") == 2
    assert value(surrounded, "garden") == 6 + 3
    assert value(enclosed_lake_around_barracks(GARDEN), "garden") == 1


# --- ranking ---------------------------------------------------------------------------


def city_worth(points_from_houses: int) -> City:
    """The starting tile (its house plaza has 1 star) plus a row of level-1 houses away from
    it: one point per house."""
    city = City.starting()
    for q in range(points_from_houses):
        city.top[encode(q + 3, 4)] = (1, HOUSE, 0)
    return city


def ranked(
    game: Akropolis, points_and_stones: list[tuple[int, int]]
) -> tuple[list[int], list[int]]:
    state = game.new_state(1, len(points_and_stones), {})
    state.cities = [city_worth(p) for p, _ in points_and_stones]
    state.stones = [s for _, s in points_and_stones]
    result = game.result(state)
    return result.scores, result.ranks


def test_the_city_helper_is_worth_what_it_says(game: Akropolis) -> None:
    state = game.new_state(1, 2, {})
    state.cities = [city_worth(3), city_worth(0)]
    state.stones = [0, 0]
    assert [game.city_score(state, p).total for p in (0, 1)] == [3, 0]


def test_the_most_points_rank_first(game: Akropolis) -> None:
    assert ranked(game, [(2, 0), (5, 0), (0, 1)]) == ([2, 5, 1], [2, 1, 3])


def test_equal_points_are_decided_by_stones(game: Akropolis) -> None:
    assert ranked(game, [(3, 1), (1, 3)]) == ([4, 4], [2, 1])


def test_equal_points_and_stones_share_the_rank(game: Akropolis) -> None:
    """Decision #shared-rank."""
    assert ranked(game, [(3, 1), (1, 3), (3, 1), (0, 0)]) == ([4, 4, 4, 0], [2, 1, 2, 4])
    assert ranked(game, [(2, 2), (2, 2), (9, 0)]) == ([4, 4, 9], [2, 2, 1])


def test_the_result_details_are_each_citys_score(game: Akropolis) -> None:
    state = game.new_state(1, 2, {})
    state.cities = [city_worth(2), city_worth(1)]
    result = game.result(state)
    assert result.details == [game.city_score(state, p).to_json() for p in (0, 1)]
    assert result.details[0]["colors"]["house"] == {"value": 2, "stars": 1, "points": 2}


def test_competition_ranks_rank_by_points_then_stones() -> None:
    assert competition_ranks([(10, 1), (10, 2), (11, 0), (10, 2)]) == [4, 2, 1, 2]
