"""Architekton's components: the numbers of the box and every building tile."""

from __future__ import annotations

from collections import Counter

from agon.web.rules_components.table import ComponentTable, source_text, table
from engine.architekton.components import BUILDINGS, LANDSCAPES, RULES_NUMBERS, TERRAINS

NUMBER_NAMES = {
    "building_tiles": "building tiles",
    "landscape_tiles": "landscape tiles",
    "landscape_tiles_per_terrain": "landscape tiles of each terrain",
    "houses_per_player": "houses per player",
    "starting_points": "points at the start",
    "reserve_per_pile": "reserve: tiles set aside from each pile",
    "display_per_kind": "display: buildings and landscapes face up",
    "starting_landscapes": "landscapes laid at the start",
    "tiles_per_turn": "tiles placed per turn",
}


def numbers() -> ComponentTable:
    return table(
        "architekton-numbers",
        "The numbers of the game",
        ("what", "how many", "source"),
        [
            (NUMBER_NAMES.get(q.name, q.name), q.value, source_text(q.provenance))
            for q in RULES_NUMBERS
        ],
    )


def building_tiles() -> ComponentTable:
    layouts = Counter(tile.edges for tile in BUILDINGS)
    return table(
        "architekton-buildings",
        f"The {len(BUILDINGS)} building tiles, unturned: the terrain of each edge "
        f"({len(layouts)} layouts, our reconstruction)",
        ("tile", "north", "east", "south", "west", "tiles with this layout"),
        [(tile.id, *(TERRAINS[t] for t in tile.edges), layouts[tile.edges]) for tile in BUILDINGS],
    )


def landscape_tiles() -> ComponentTable:
    return table(
        "architekton-landscapes",
        f"The {sum(kind.count for kind in LANDSCAPES)} landscape tiles",
        ("terrain", "tiles", "source"),
        [(TERRAINS[kind.terrain], kind.count, source_text(kind.provenance)) for kind in LANDSCAPES],
    )


def tables() -> list[ComponentTable]:
    return [numbers(), landscape_tiles(), building_tiles()]
