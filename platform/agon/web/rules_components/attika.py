"""Attika's components: every building with its cost and arrow, the numbers of the box,
the setups, and the map tiles."""

from __future__ import annotations

from agon.web.rules_components.table import ComponentTable, source_text, table
from engine.attika.components import (
    AMPHORAE,
    BUILDINGS,
    CARDS_PER_LANDSCAPE,
    GROUPS,
    LANDSCAPES,
    MAIN_STACK_SIZE,
    MAP_TILES,
    REGULAR_STACK_SIZE,
    REGULAR_STACKS,
    ROAD_COST,
    SETUP_LAYOUTS,
    SHRINES,
    STARTING_HANDS,
)


def cost_text(letters: str) -> str:
    """A printed cost as its symbols' letters, `M M H`; a road's as 5 of any landscape."""
    return " ".join(letters) if letters else f"{ROAD_COST} any"


def buildings() -> ComponentTable:
    group_names = {g.id: g.name for g in GROUPS}
    rows = []
    for b in BUILDINGS:
        if b.group == "roads":
            free = "a road of yours"
        elif b.main:
            free = "never (main)"
        else:
            free = f"your {b.upstream}"
        shown = b.id if b.name.lower() == b.id else f"{b.id} ({b.name})"
        rows.append((shown, group_names[b.group], cost_text(b.cost), free, source_text(b.source)))
    return table(
        "attika-buildings",
        f"Each player's {len(BUILDINGS)} buildings, by id: printed cost (M mountain, H hill, "
        "F forest, W water) and the building whose arrow leads to it, next to which it is free",
        ("building", "group", "cost", "free next to", "source"),
        rows,
    )


def numbers() -> ComponentTable:
    return table(
        "attika-numbers",
        "The other components and numbers",
        ("what", "how many"),
        [
            (
                "landscape cards",
                f"{CARDS_PER_LANDSCAPE * len(LANDSCAPES)}, {CARDS_PER_LANDSCAPE} of each landscape",
            ),
            ("amphorae (common supply)", AMPHORAE),
            ("shrines", SHRINES),
            ("map tiles", len(MAP_TILES)),
            ("starting hand, seat 0 to 3", ", ".join(map(str, STARTING_HANDS))),
            (
                "stacks per player",
                f"1 of {MAIN_STACK_SIZE} main buildings, "
                f"{REGULAR_STACKS} of {REGULAR_STACK_SIZE} others",
            ),
        ],
    )


def setups() -> ComponentTable:
    return table(
        "attika-setups",
        "The map at the start (our reconstruction): where the first tiles' centres and "
        "the shrines go",
        ("players", "map tiles", "tile centres (q, r)", "shrines (q, r)"),
        [
            (
                layout.players,
                len(layout.tile_centres),
                _cells(layout.tile_centres),
                _cells(layout.shrines),
            )
            for layout in SETUP_LAYOUTS.values()
        ],
    )


def _cells(cells: tuple[tuple[int, int], ...]) -> str:
    return " ".join(f"({q}, {r})" for q, r in cells)


def map_tiles() -> ComponentTable:
    return table(
        "attika-map-tiles",
        f"The {len(MAP_TILES)} map tiles (our reconstruction): the centre, then ring hexes "
        "0 to 5 (M mountain, H hill, F forest, W water, . blank)",
        ("tile", "centre", *(f"ring {k}" for k in range(6))),
        [(tile.id, *tile.hexes) for tile in MAP_TILES],
        folded=True,
    )


def tables() -> list[ComponentTable]:
    return [buildings(), numbers(), setups(), map_tiles()]
