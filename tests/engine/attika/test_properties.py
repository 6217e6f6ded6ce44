"""Properties of whole seeded Attika games for 2, 3 and 4 players (hypothesis).

The examples are derandomized and there is no example database, so every run plays the
same games. What every game promises is checked in tests/engine/test_game_contract.py;
these are Attika's own.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.attika import AttikaState
from engine.attika.actions import extend_action
from engine.attika.builds import affordable_cells, slow_affordable_cells
from engine.attika.colonies import shrines_linked, shrines_touched
from engine.attika.index import MapIndex
from engine.attika.map import slow_tile_centres, tile_centres, tile_placements
from tests.engine.attika.support import GAME, random_game
from tests.engine.support import property_settings

MAX_DECISIONS = 2000
"""No game may take more decisions than this (random games take a few hundred)."""

Setup = tuple[int, int]
setups = st.tuples(st.integers(min_value=0, max_value=2**64 - 1), st.sampled_from([2, 3, 4]))


def colony_partition(labels: dict[int, int]) -> list[list[int]]:
    groups: dict[int, list[int]] = {}
    for cell, label in labels.items():
        groups.setdefault(label, []).append(cell)
    return sorted(sorted(cells) for cells in groups.values())


def assert_index_is_fresh(state: AttikaState) -> None:
    """The tables kept up to date move by move equal tables built from scratch."""
    fresh = MapIndex.build(
        state.players, state.tiles, state.shrines, [s.placed for s in state.seats]
    )
    kept = state.index
    for name in ("symbol_at", "blocked", "frontier", "owner_at", "building_at", "discount"):
        assert getattr(kept, name) == getattr(fresh, name), name
    assert kept.by_discount == fresh.by_discount and kept.free_sorted == fresh.free_sorted
    assert kept.near == fresh.near and kept.touching == fresh.touching
    assert kept.colonies == fresh.colonies and kept.road_near == fresh.road_near
    for mine, theirs in zip(kept.colony_of, fresh.colony_of, strict=True):
        assert colony_partition(mine) == colony_partition(theirs)


def assert_conserved(state: AttikaState) -> None:
    cards = len(state.deck) + sum(state.discard) + sum(sum(s.hand) for s in state.seats)
    assert cards == 60
    assert state.amphora_supply + sum(s.amphorae for s in state.seats) == 15
    in_hand = state.pending is not None and state.pending.kind in ("drawn", "pay")
    for player, seat in enumerate(state.seats):
        held = len(seat.board) + sum(len(s) for s in seat.stacks) + len(seat.placed)
        assert held + (in_hand and player == state.current) == 30


@property_settings(40)
@given(setups)
def test_every_game_ends_in_bounded_time_with_its_pieces_conserved(setup: Setup) -> None:
    seed, players = setup
    state = None
    for decisions, (state, chosen) in enumerate(random_game(seed, players)):
        assert decisions < MAX_DECISIONS
        if chosen is None:
            break
        assert_conserved(state)
    assert state is not None and GAME.is_over(state)
    assert_conserved(state)


@property_settings(15)
@given(setups)
def test_the_kept_tables_and_fast_listings_match_the_slow_oracles(setup: Setup) -> None:
    for state, chosen in random_game(*setup):
        assert_index_is_fresh(state)
        if chosen is None:
            break
        player = GAME.current_player(state)
        for building in state.seats[player].board:
            assert affordable_cells(state, player, building) == slow_affordable_cells(
                state, player, building
            )
        if state.pending is not None and state.pending.kind == "tile":
            assert tile_centres(state) == slow_tile_centres(state)
            placements = tile_placements(state, state.pending.tile)
            assert list(GAME.legal_actions(state)) == [extend_action(*p) for p in placements]
        for seat, labels in enumerate(state.index.colony_of):
            for cell, label in labels.items():
                linked = shrines_linked(state, seat, cell) >= 2
                assert (shrines_touched(state, seat, label) >= 2) == linked
