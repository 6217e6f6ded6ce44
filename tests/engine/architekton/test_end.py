"""The end: piles running out, the reserve turn, the final removal, groups, ties; and the
safety rule for a display that fits nowhere."""

from __future__ import annotations

import pytest

from engine.architekton import Architekton, ArchitektonState
from engine.architekton.board import legal_placements
from engine.squaregrid import DIRECTIONS
from tests.engine.architekton.support import (
    FOREST,
    LAYOUT_WMPF,
    MOUNTAIN,
    PLAIN,
    WATER,
    empty_city,
    put_building,
    put_landscape,
    random_game,
    with_display,
)

PASS = {"pass": True}


def surround(state: ArchitektonState, x: int, y: int, count: int) -> None:
    """Landscapes on the first `count` sides (N, E, S, W) of the cell."""
    for dx, dy in DIRECTIONS[:count]:
        put_landscape(state, x + dx, y + dy, WATER)


def play_turn(game: Architekton, state: ArchitektonState) -> None:
    player = state.turn_player
    while state.turn_player == player and not game.is_over(state):
        game.apply(state, game.legal_actions(state)[0])


def test_when_a_pile_cannot_refill_after_the_second_seat_the_game_ends(
    game: Architekton,
) -> None:
    """Decision #end-when-short, #reserve-turn."""
    state = game.new_state(4, 2, {})
    play_turn(game, state)
    state.building_pile.clear()
    state.landscape_pile.clear()
    reserve = list(state.reserve_buildings), list(state.reserve_landscapes)
    play_turn(game, state)
    assert state.turns_taken == [1, 1]
    assert game.is_over(state)
    assert (state.reserve_buildings, state.reserve_landscapes) == reserve


def test_after_the_first_seat_the_second_plays_a_last_turn_from_the_reserve(
    game: Architekton,
) -> None:
    """Decision #reserve-turn."""
    state = game.new_state(4, 2, {})
    state.building_pile = state.building_pile[:1]
    state.landscape_pile = state.landscape_pile[:1]
    play_turn(game, state)
    assert state.stage == "reserve_turn"
    assert state.turn_player == 1
    assert len(state.display_buildings) == len(state.display_landscapes) == 3
    assert len(state.reserve_buildings) + len(state.reserve_landscapes) < 8
    play_turn(game, state)
    assert game.is_over(state)
    assert state.turns_taken == [1, 1]


def test_normal_play_goes_on_while_the_display_is_full(game: Architekton) -> None:
    state = game.new_state(4, 2, {})
    state.building_pile = state.building_pile[:2]
    state.landscape_pile = state.landscape_pile[:2]
    game.apply(state, game.legal_actions(state)[0])
    game.apply(state, next(a for a in game.legal_actions(state) if "building" in a))
    assert state.stage == "play" and not state.building_pile


def test_every_game_gives_both_players_the_same_number_of_turns() -> None:
    for seed in range(30):
        for state, action in random_game(seed):
            if action is None and state.loser is None:
                assert state.turns_taken[0] == state.turns_taken[1]


def scored_city() -> ArchitektonState:
    """Seat 0: a diagonal chain of three houses touched by 3+ landscapes, one lone house
    touched by 4, one touched by only 2. Seat 1: two diagonal houses, one touched by 1."""
    state = empty_city()
    for x, y in ((0, 1), (1, 2), (2, 3)):
        put_building(state, x, y, LAYOUT_WMPF, 0, 0)
        surround(state, x, y, 3)
    put_building(state, 10, 1, LAYOUT_WMPF, 0, 0)
    surround(state, 10, 1, 4)
    put_building(state, 20, 1, LAYOUT_WMPF, 0, 0)
    surround(state, 20, 1, 2)
    put_building(state, 30, 1, LAYOUT_WMPF, 0, 1)
    surround(state, 30, 1, 3)
    put_building(state, 31, 0, LAYOUT_WMPF, 0, 1)  # touched by (31, 1) and (30, 0) only
    state.stage = "over"
    return state


def test_houses_touched_by_one_or_two_landscapes_are_removed_at_the_end(
    game: Architekton,
) -> None:
    details = game.result(scored_city()).details
    assert [d["houses_kept"] for d in details] == [4, 1]


def test_each_player_scores_their_largest_diagonal_group(game: Architekton) -> None:
    state = scored_city()
    state.points = [2, 3]
    result = game.result(state)
    assert result.scores == [2 + 3, 3 + 1]
    assert result.ranks == [1, 2]


def test_a_tie_goes_to_more_houses_on_the_board(game: Architekton) -> None:
    """Decision #tie-break."""
    state = scored_city()
    state.points = [1, 3]  # 1 + 3 = 3 + 1
    assert game.result(state).ranks == [1, 2]


def test_a_full_tie_is_shared(game: Architekton) -> None:
    """Decision #tie-break."""
    state = empty_city()
    put_building(state, 0, 1, LAYOUT_WMPF, 0, 0)
    put_building(state, 10, 1, LAYOUT_WMPF, 0, 1)
    surround(state, 0, 1, 3)
    surround(state, 10, 1, 3)
    state.stage = "over"
    assert game.result(state).ranks == [1, 1]


def closed_in_water() -> ArchitektonState:
    """Water on (0, 0) closed in by four buildings that show it water; their other edges
    want mountain, plain or forest; the display offers only water landscapes."""
    state = empty_city()
    put_landscape(state, 0, 0, WATER)
    put_building(state, 0, 1, LAYOUT_WMPF, 2, 0)  # water shows south
    put_building(state, 1, 0, LAYOUT_WMPF, 3, 1)  # water shows west
    put_building(state, 0, -1, LAYOUT_WMPF, 0, 0)  # water shows north
    put_building(state, -1, 0, LAYOUT_WMPF, 1, 1)  # water shows east
    # No building fits either: no empty cell touches a landscape.
    return with_display(state, [2, 3, 4], [WATER, WATER, WATER])


def test_a_player_passes_only_when_nothing_fits(game: Architekton) -> None:
    """Decision #pass-when-stuck."""
    state = game.new_state(4, 2, {})
    assert PASS not in game.legal_actions(state)
    with pytest.raises(ValueError, match="only when no tile"):
        game.apply(state, PASS)
    stuck = closed_in_water()
    stuck.landscape_pile = [WATER, WATER, WATER, WATER]
    assert not legal_placements(stuck)
    assert list(game.legal_actions(stuck)) == [PASS]


def test_a_display_that_fits_nowhere_is_swept_under_the_piles_at_a_turn_start(
    game: Architekton,
) -> None:
    """Decision #display-sweep."""
    state = closed_in_water()
    state.landscape_pile = [FOREST, PLAIN, MOUNTAIN, WATER]
    game.apply(state, PASS)
    assert state.turn_player == 1
    assert state.display_landscapes == [FOREST, PLAIN, MOUNTAIN]
    assert state.landscape_pile == [WATER, WATER, WATER, WATER]
    assert PASS not in game.legal_actions(state)


def test_two_turns_in_a_row_without_a_placement_end_normal_play(game: Architekton) -> None:
    """Decision #idle-turns-end."""
    state = closed_in_water()
    state.landscape_pile = [WATER, WATER, WATER]
    game.apply(state, PASS)
    assert state.stage == "play" and state.idle_turns == 1
    game.apply(state, PASS)
    assert game.is_over(state)
    assert state.turns_taken == [1, 1]


def test_a_player_who_cannot_place_a_second_tile_passes_it(game: Architekton) -> None:
    """Decision #pass-when-stuck."""
    state = closed_in_water()
    state.display_buildings = []
    state.display_landscapes = [FOREST, WATER, WATER]
    state.landscape_pile = [PLAIN, PLAIN]
    game.apply(state, {"landscape": "forest", "x": -1, "y": 1})
    assert list(game.legal_actions(state)) == [PASS]
    game.apply(state, PASS)
    assert state.turn_player == 1
    assert state.idle_turns == 0
