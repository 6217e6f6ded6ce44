"""`fast.index`: the tables kept up to date move by move must equal tables built from
scratch, and say what the plain rules say (`state.hexes`, `map.buildings_on_map`,
`map.free_cells`, `map.tile_centres`, `costs.discount`, `colonies.colonies`), every
decision of random games and in copies that part ways."""

from __future__ import annotations

from hypothesis import given

from engine.attika import AttikaState
from engine.attika.colonies import colonies
from engine.attika.costs import discount
from engine.attika.fast.index import MapIndex
from engine.attika.map import buildings_on_map, free_cells, tile_centres
from tests.engine.attika.support import GAME, random_game
from tests.engine.attika.test_properties import Setup, setups
from tests.engine.support import property_settings


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
    kept = state.caches.index
    for name in ("symbol_at", "blocked", "frontier", "owner_at", "building_at", "discount"):
        assert getattr(kept, name) == getattr(fresh, name), name
    assert kept.by_discount == fresh.by_discount and kept.free_sorted == fresh.free_sorted
    assert kept.near == fresh.near and kept.touching == fresh.touching
    assert kept.colonies == fresh.colonies and kept.road_near == fresh.road_near
    for mine, theirs in zip(kept.colony_of, fresh.colony_of, strict=True):
        assert colony_partition(mine) == colony_partition(theirs)


def assert_index_says_the_rules(state: AttikaState) -> None:
    index = state.caches.index
    assert index.symbol_at == state.hexes
    built = buildings_on_map(state)
    assert {cell: (index.owner_at[cell], index.building_at[cell]) for cell in built} == built
    assert set(index.owner_at) == set(built)
    assert index.free_sorted == free_cells(state)
    assert {cell: discount(state, cell) for cell in index.free_sorted} == index.discount
    assert sorted(index.frontier) == tile_centres(state)
    for player in range(state.players):
        chains = colonies(state, player)
        assert index.colonies[player] == len(chains)
        assert colony_partition(index.colony_of[player]) == sorted(sorted(c) for c in chains)


@property_settings(10)
@given(setups)
def test_the_kept_tables_are_fresh_and_say_what_the_rules_say(setup: Setup) -> None:
    for state, chosen in random_game(*setup):
        assert_index_is_fresh(state)
        if state.turn % 4 == 0 or chosen is None:
            assert_index_says_the_rules(state)
        if state.turn % 25 == 0 and chosen is not None:  # a copy parts ways
            twin = GAME.copy_state(state)
            legal = GAME.legal_actions(twin)
            GAME.apply(twin, legal[len(legal) - 1])
            assert_index_is_fresh(twin)
            assert_index_says_the_rules(twin)
