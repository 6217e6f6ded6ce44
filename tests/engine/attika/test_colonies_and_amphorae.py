"""Colonies (groups of a player's adjacent buildings) and amphorae (joining a group)."""

from __future__ import annotations

from engine.attika.colonies import chain_of
from tests.engine.attika.support import GAME, b, build, on_board, painted, put, set_hand


def test_colonies_are_counted_merged_and_split_by_adjacency_only() -> None:
    state = painted()
    put(state, 0, "road_1", 0, 0)
    put(state, 0, "road_2", 2, 0)
    put(state, 0, "road_3", -2, 0)
    assert state.caches.index.colonies[0] == 3
    put(state, 0, "road_4", 1, 0)  # joins the first two
    assert state.caches.index.colonies[0] == 2
    put(state, 0, "quarry", -1, 0)  # joins all
    assert state.caches.index.colonies[0] == 1
    cells = list(state.seats[0].placed.values())
    assert chain_of(cells, cells[0]) == set(cells)


def test_an_amphora_is_earned_when_a_whole_group_is_on_the_map_and_connected() -> None:
    """Decision #amphora-earned."""
    state = painted()
    put(state, 0, "vineyard", 0, 0)
    put(state, 0, "vintner", 2, 0)  # the group is complete, but in two pieces
    assert state.seats[0].amphorae == 0 and not state.seats[0].amphora_groups
    put(state, 0, "road_1", 1, 0)  # a road between them does not join the vineyard group
    assert state.seats[0].amphorae == 0
    state2 = painted()
    put(state2, 0, "vintner", 0, 0)  # order does not matter
    put(state2, 0, "vineyard", 1, 0)
    assert state2.seats[0].amphorae == 1 and state2.amphora_supply == 14
    assert state2.seats[0].amphora_groups == [6]


def test_a_group_completed_in_pieces_never_earns_its_amphora() -> None:
    # Only the group's own buildings connect it, and the last one placed decides.
    """Decision #amphora-earned."""
    state = painted()
    put(state, 0, "mint", 0, 0)
    put(state, 0, "treasury", 2, 0)
    put(state, 0, "road_1", 1, 0)
    assert state.seats[0].amphorae == 0 and not state.seats[0].amphora_groups


def test_with_the_supply_empty_a_landscape_card_is_taken_and_the_turn_goes_on() -> None:
    """Decision #amphora-card-instead."""
    state = painted()
    state.amphora_supply = 0
    for building in list(state.seats[0].board):
        state.seats[0].board.remove(building)
        state.seats[0].stacks[1].append(building)
    put(state, 0, "mint", 0, 0)
    put(state, 0, "road_1", 3, 0)
    on_board(state, 0, "treasury", "road_2")
    set_hand(state, 0, "")
    GAME.apply(state, build("treasury", 1, 0))  # free along the arrow: joins the Mint group
    assert sum(state.seats[0].hand) == 1 and state.seats[0].amphorae == 0
    assert state.seats[0].amphora_groups == [5]
    assert not state.took_cards and GAME.current_player(state) == 0 and state.actions_left == 2
    GAME.apply(state, build("road_2", 4, 0))  # still building
    assert b("road_2") in state.seats[0].placed
