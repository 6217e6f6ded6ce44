"""The component data: sourced counts hold, and the reconstruction keeps its constraints."""

from __future__ import annotations

from collections import Counter

from engine.attika.components import (
    AMPHORAE,
    BUILDINGS,
    CARDS_PER_LANDSCAPE,
    COST,
    GROUP_MEMBERS,
    GROUPS,
    IS_MAIN,
    LANDSCAPES,
    MAP_TILES,
    ROAD_COST,
    SETUP_LAYOUTS,
    SHRINES,
    STARTING_HANDS,
    UPSTREAM,
    tile_cells,
)
from engine.hexgrid import NEIGHBOUR_STEPS, encode

SOURCES = {"sourced", "reconstructed"}


def test_every_item_says_where_it_comes_from() -> None:
    sources = [group.source for group in GROUPS] + [building.source for building in BUILDINGS]
    sources += [tile.source for tile in MAP_TILES]
    sources += [layout.source for layout in SETUP_LAYOUTS.values()]
    assert set(sources) <= SOURCES
    assert all(tile.source == "reconstructed" for tile in MAP_TILES)
    assert all(layout.source == "reconstructed" for layout in SETUP_LAYOUTS.values())


def test_the_sourced_counts() -> None:
    assert LANDSCAPES == ("mountain", "hill", "forest", "water")
    assert CARDS_PER_LANDSCAPE == 15 and AMPHORAE == 15 and SHRINES == 4
    assert STARTING_HANDS == (4, 5, 6, 7)
    assert len(MAP_TILES) == 22 and ROAD_COST == 5
    sizes = {group.id: len(members) for group, members in zip(GROUPS, GROUP_MEMBERS, strict=True)}
    assert sizes == {
        "city": 10,
        "defence": 4,
        "shipping": 4,
        "supply": 4,
        "roads": 4,
        "mint": 2,
        "vineyard": 2,
    }
    assert len(BUILDINGS) == 30 and sum(IS_MAIN) == 6


def test_the_defence_group_and_the_fortress_are_as_published() -> None:
    by_id = {building.id: building for building in BUILDINGS}
    assert by_id["quarry"].main
    assert by_id["fortress"].upstream == "quarry"
    assert by_id["tower_1"].upstream == by_id["tower_2"].upstream == "fortress"
    assert sorted(by_id["fortress"].cost) == sorted("MMMH")
    assert by_id["fortress"].source == "sourced"
    assert by_id["vintner"].upstream == "vineyard" and by_id["vineyard"].main
    assert {"temple", "theatre", "oracle"} <= {b.id for b in BUILDINGS if b.group == "city"}
    assert {"harbour", "ship_1"} <= {b.id for b in BUILDINGS if b.group == "shipping"}


def test_each_group_but_roads_is_a_tree_of_arrows_rooted_at_its_main_building() -> None:
    """Decision #reconstruction."""
    for group, members in zip(GROUPS, GROUP_MEMBERS, strict=True):
        mains = [b for b in members if IS_MAIN[b]]
        if group.id == "roads":
            assert not mains and all(UPSTREAM[b] == -1 for b in members)
            continue
        assert len(mains) == 1
        for building in members:
            seen = set()
            while UPSTREAM[building] != -1:  # walking up the arrows reaches the main one
                assert building not in seen
                seen.add(building)
                building = UPSTREAM[building]
                assert building in members
            assert building == mains[0]


def test_costs_have_1_to_4_symbols_and_the_city_is_the_costliest() -> None:
    """Decision #reconstruction."""
    for building, cost in zip(BUILDINGS, COST, strict=True):
        if building.group == "roads":
            assert cost == (0, 0, 0, 0) and building.cost == ""
        else:
            assert 1 <= sum(cost) <= 4
    average = {
        group.id: sum(sum(COST[b]) for b in members) / len(members)
        for group, members in zip(GROUPS, GROUP_MEMBERS, strict=True)
        if group.id != "roads"
    }
    assert max(average, key=lambda g: average[g]) == "city"


def test_the_landscapes_are_equally_needed_by_the_buildings() -> None:
    totals = [sum(cost[i] for cost in COST) for i in range(4)]
    assert len(set(totals)) == 1


def test_map_tiles_have_4_or_5_symbols_and_the_landscapes_are_balanced() -> None:
    """Decision #reconstruction."""
    letters: Counter[str] = Counter()
    for tile in MAP_TILES:
        symbols = [h for h in tile.hexes if h != "."]
        assert len(tile.hexes) == 7 and 4 <= len(symbols) <= 5
        assert set(tile.hexes) <= set("MHFW.")
        letters.update(symbols)
    assert letters == dict.fromkeys("MHFW", 25)


def test_setups_have_4_6_8_tiles_and_2_3_4_shrines_that_touch_the_map_without_overlap() -> None:
    for players, tiles, shrines in ((2, 4, 2), (3, 6, 3), (4, 8, 4)):
        layout = SETUP_LAYOUTS[players]
        assert len(layout.tile_centres) == tiles and len(layout.shrines) == shrines
        cells = [c for q, r in layout.tile_centres for c in tile_cells(q, r, 0)]
        assert len(cells) == len(set(cells)) == 7 * tiles
        for q, r in layout.shrines:
            shrine = encode(q, r)
            assert shrine not in cells
            assert any(shrine + step in cells for step in NEIGHBOUR_STEPS)


def test_setups_are_point_symmetric() -> None:
    """Decision #reconstruction."""
    for layout in SETUP_LAYOUTS.values():
        if layout.players == 3:
            continue  # a triangle: symmetric under a third of a turn instead
        qs = [q for q, _ in layout.tile_centres]
        rs = [r for _, r in layout.tile_centres]
        cq, cr = min(qs) + max(qs), min(rs) + max(rs)
        centres = set(layout.tile_centres)
        assert {(cq - q, cr - r) for q, r in centres} == centres
        shrines = set(layout.shrines)
        assert {(cq - q, cr - r) for q, r in shrines} == shrines
