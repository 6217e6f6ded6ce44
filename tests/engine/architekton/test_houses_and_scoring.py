"""Houses on buildings, and the scoring of a building once its four edges are covered."""

from __future__ import annotations

import pytest

from engine.architekton import Architekton, ArchitektonState
from engine.core import IllegalAction
from tests.engine.architekton.support import (
    FOREST,
    LAYOUT_WMPF,
    MOUNTAIN,
    PLAIN,
    WATER,
    building,
    cell,
    empty_city,
    landscape,
    put_building,
    put_landscape,
    with_display,
)

KEEP = {"remove_house": False}
REMOVE = {"remove_house": True}


def nearly_surrounded(owner: int | None, *, west_helper: bool = False) -> ArchitektonState:
    """Building tile 1 unturned on (0, 1) (water N, mountain E, plain S, forest W), with
    matching water, mountain and plain landscapes: its west side (-1, 1) is open. With
    `west_helper`, a building on (-2, 1) shows water towards (-1, 1), so water may go
    there (a mismatch for the building on (0, 1))."""
    state = empty_city()
    put_building(state, 0, 1, LAYOUT_WMPF, 0, owner)
    put_landscape(state, 0, 2, WATER)
    put_landscape(state, 1, 1, MOUNTAIN)
    put_landscape(state, 0, 0, PLAIN)
    if west_helper:
        put_building(state, -2, 1, LAYOUT_WMPF, 1, None)
    return with_display(state, [2, 3, 4], [FOREST, WATER, PLAIN])


def test_placing_a_building_puts_one_of_the_players_houses_on_it(game: Architekton) -> None:
    state = game.new_state(3, 2, {})
    action = game.legal_actions(state)[0]
    game.apply(state, action)
    assert state.houses == {cell(action["x"], action["y"]): 0}
    assert state.supply == [11, 12]


def test_a_building_whose_four_edges_all_match_scores_1(game: Architekton) -> None:
    state = nearly_surrounded(1)
    game.apply(state, landscape("forest", -1, 1))
    assert state.points == [1, 2]
    assert not state.pending


def test_each_mismatching_edge_costs_its_owner_a_point(game: Architekton) -> None:
    state = nearly_surrounded(0, west_helper=True)
    state.points[0] = 5
    game.apply(state, landscape("water", -1, 1))
    assert game.legal_actions(state)[:] == [KEEP, REMOVE]
    game.apply(state, KEEP)
    assert state.points == [4, 1]
    assert state.houses[cell(0, 1)] == 0


def test_every_earlier_mismatch_counts_too(game: Architekton) -> None:
    state = nearly_surrounded(0, west_helper=True)
    state.landscapes[cell(0, 2)] = FOREST  # placed earlier next to another building
    state.points[0] = 5
    game.apply(state, landscape("water", -1, 1))
    assert state.pending[0].loss == 2
    game.apply(state, KEEP)
    assert state.points[0] == 3


def test_the_owner_may_remove_the_house_from_play_to_lose_one_point_less(
    game: Architekton,
) -> None:
    state = nearly_surrounded(0, west_helper=True)
    state.landscapes[cell(0, 2)] = FOREST
    state.points[0] = 5
    game.apply(state, landscape("water", -1, 1))
    game.apply(state, REMOVE)
    assert state.points[0] == 4
    assert cell(0, 1) not in state.houses
    assert state.removed == [1, 0]
    assert state.supply[0] == 12  # removed from play, not back to the supply


def test_the_owner_decides_even_during_the_opponents_turn(game: Architekton) -> None:
    """Decision #owner-decides."""
    state = nearly_surrounded(1, west_helper=True)
    game.apply(state, landscape("water", -1, 1))
    assert state.turn_player == 0
    assert game.current_player(state) == 1
    game.apply(state, KEEP)
    assert game.current_player(state) == 0  # seat 0 goes on with its second tile
    assert state.placed_this_turn == 1


def test_a_player_who_cannot_pay_loses_at_once(game: Architekton) -> None:
    state = nearly_surrounded(0, west_helper=True)
    state.landscapes[cell(0, 2)] = FOREST  # loss 2, 1 point
    game.apply(state, landscape("water", -1, 1))
    game.apply(state, KEEP)
    assert game.is_over(state)
    assert state.loser == 0
    result = game.result(state)
    assert result.ranks == [2, 1]
    assert result.details[0]["lost_early"] is True
    with pytest.raises(IllegalAction, match="over"):
        game.apply(state, KEEP)


def test_removing_the_house_can_save_the_player(game: Architekton) -> None:
    """Decision #remove-before-paying."""
    state = nearly_surrounded(0, west_helper=True)
    state.landscapes[cell(0, 2)] = FOREST  # loss 2, 1 point
    game.apply(state, landscape("water", -1, 1))
    game.apply(state, REMOVE)
    assert not game.is_over(state)
    assert state.points[0] == 0


def test_a_player_may_pay_down_to_zero(game: Architekton) -> None:
    """Decision #pay-down-to-zero."""
    state = nearly_surrounded(0, west_helper=True)
    game.apply(state, landscape("water", -1, 1))
    game.apply(state, KEEP)
    assert state.points[0] == 0
    assert not game.is_over(state)


def test_a_building_without_a_house_scores_nothing(game: Architekton) -> None:
    state = nearly_surrounded(None)
    game.apply(state, landscape("forest", -1, 1))
    assert state.points == [1, 1]


def test_gains_of_one_placement_are_paid_before_its_losses(game: Architekton) -> None:
    # (-1, 1) closes both the building on (0, 1) (all match with forest) and the one on
    # (-2, 1) (turned once: it shows plain west, forest north, mountain south, water east).
    """Decision #gains-before-losses."""
    state = nearly_surrounded(0)
    put_building(state, -2, 1, LAYOUT_WMPF, 1, 0)
    put_landscape(state, -2, 2, FOREST)
    put_landscape(state, -3, 1, PLAIN)
    put_landscape(state, -2, 0, MOUNTAIN)
    state.points[0] = 0
    game.apply(state, landscape("forest", -1, 1))  # matches (0, 1); water was wanted by (-2, 1)
    assert state.points[0] == 1  # the gain came first
    game.apply(state, KEEP)
    assert state.points[0] == 0
    assert not game.is_over(state)


def test_several_losses_are_decided_in_board_order(game: Architekton) -> None:
    """Decision #losses-in-board-order."""
    state = nearly_surrounded(1)
    put_building(state, -2, 1, LAYOUT_WMPF, 1, 0)
    put_landscape(state, -2, 2, FOREST)
    put_landscape(state, -3, 1, PLAIN)
    put_landscape(state, -2, 0, MOUNTAIN)
    state.landscapes[cell(0, 2)] = FOREST  # (0, 1) now mismatches north too
    state.points = [5, 5]
    state.display_landscapes = [PLAIN, WATER, WATER]
    game.apply(state, landscape("water", -1, 1))  # fine for (-2, 1), not for (0, 1)
    assert [(d.player, d.cell, d.loss) for d in state.pending] == [(1, cell(0, 1), 2)]
    state2 = nearly_surrounded(1)
    put_building(state2, -2, 1, LAYOUT_WMPF, 1, 0)
    put_landscape(state2, -2, 2, WATER)
    put_landscape(state2, -3, 1, PLAIN)
    put_landscape(state2, -2, 0, MOUNTAIN)
    put_building(state2, -1, 0, LAYOUT_WMPF, 2, None)  # shows plain north, to (-1, 1)
    state2.points = [5, 5]
    game.apply(state2, landscape("plain", -1, 1))  # wrong for both houses
    assert [(d.player, d.cell) for d in state2.pending] == [(0, cell(-2, 1)), (1, cell(0, 1))]
    assert game.current_player(state2) == 0
    game.apply(state2, KEEP)
    assert game.current_player(state2) == 1


def test_a_building_placed_into_a_hole_scores_at_once(game: Architekton) -> None:
    state = empty_city()
    for x, y, terrain in ((0, 2, WATER), (1, 1, MOUNTAIN), (0, 0, PLAIN), (-1, 1, FOREST)):
        put_landscape(state, x, y, terrain)
    with_display(state, [LAYOUT_WMPF, 2, 3], [WATER, WATER, WATER])
    game.apply(state, building(LAYOUT_WMPF, 0, 1, 0))
    assert state.points[0] == 2


def test_with_no_house_left_a_placed_house_moves_onto_the_new_building(
    game: Architekton,
) -> None:
    """Decision #move-a-house."""
    state = empty_city()
    put_landscape(state, 0, 0, WATER)
    put_building(state, 1, 0, LAYOUT_WMPF, 1, 0)
    put_building(state, -1, 0, LAYOUT_WMPF, 3, 1)
    put_building(state, 0, 1, LAYOUT_WMPF, 2, 0)
    with_display(state, [LAYOUT_WMPF, 2, 3], [WATER, WATER, WATER])
    state.supply[0] = 0
    game.apply(state, building(LAYOUT_WMPF, 0, -1, 0))
    assert game.current_player(state) == 0
    assert list(game.legal_actions(state)) == [{"house": [0, 1]}, {"house": [1, 0]}]
    with pytest.raises(IllegalAction):
        game.apply(state, {"house": [-1, 0]})  # the opponent's
    game.apply(state, {"house": [1, 0]})
    assert state.houses == {cell(-1, 0): 1, cell(0, 1): 0, cell(0, -1): 0}
    assert state.supply[0] == 0


def test_with_no_house_anywhere_the_building_stays_empty(game: Architekton) -> None:
    """Decision #no-house-anywhere."""
    state = empty_city()
    put_landscape(state, 0, 0, WATER)
    with_display(state, [LAYOUT_WMPF, 2, 3], [WATER, WATER, WATER])
    state.supply[0] = 0
    game.apply(state, building(LAYOUT_WMPF, 0, -1, 0))
    assert not state.pending
    assert cell(0, -1) in state.buildings and cell(0, -1) not in state.houses


def test_a_decision_accepts_only_its_own_kind_of_answer(game: Architekton) -> None:
    state = nearly_surrounded(0, west_helper=True)
    game.apply(state, landscape("water", -1, 1))
    with pytest.raises(IllegalAction):
        game.apply(state, {"house": [0, 1]})
    with pytest.raises(IllegalAction):
        game.apply(state, landscape("plain", 0, 3))
