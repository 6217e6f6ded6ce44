"""Megalopolis's components: the 21 kinds of tiles and the numbers of the game."""

from __future__ import annotations

from agon.web.rules_components.table import ComponentTable, source_text, table
from engine.megalopolis.components import KINDS, RULES_NUMBERS, Kind

NUMBER_NAMES = {
    "tiles": "tiles",
    "tokens_per_player": "tokens per player",
    "hand_size": "tiles in a hand (dealt, then refilled to)",
    "starting_cross": "face-down tiles at the start",
    "smallest_scoring_group": "smallest group that scores",
    "factory_draw": "tiles a Factory draws",
    "library_look": "tiles a Library looks at",
    "arboretum_tokens": "tokens an Arboretum takes back, at most",
    "power_stations_to_end": "face-up Power Stations that end the game",
}


def kind_source(kind: Kind) -> str:
    """Where a kind's bonus and border come from (its count always is printed)."""
    bonus, border = source_text(kind.bonus_provenance), source_text(kind.silver_provenance)
    return bonus if bonus == border else f"bonus {bonus}, border {border}"


def tiles() -> ComponentTable:
    return table(
        "megalopolis-tiles",
        f"The {sum(kind.count for kind in KINDS)} tiles: each kind with its count, bonus "
        "points and border, and its short name in the replay viewer",
        ("kind", "tiles", "bonus", "silver border", "short name", "bonus and border"),
        [
            (
                kind.name,
                kind.count,
                kind.bonus,
                "yes" if kind.silver else "no",
                kind.abbreviation,
                kind_source(kind),
            )
            for kind in KINDS
        ],
    )


def numbers() -> ComponentTable:
    return table(
        "megalopolis-numbers",
        "The numbers of the game",
        ("what", "how many", "source"),
        [
            (NUMBER_NAMES.get(q.name, q.name), q.value, source_text(q.provenance))
            for q in RULES_NUMBERS
        ],
    )


def tables() -> list[ComponentTable]:
    return [tiles(), numbers()]
