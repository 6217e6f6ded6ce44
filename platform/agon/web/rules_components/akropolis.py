"""Akropolis's components: the tiles in play and the stacks for each number of players,
what the tiles hold, and every tile."""

from __future__ import annotations

from collections import Counter

from agon.web.rules_components.table import ComponentTable, table
from engine.akropolis.components import COLORS, PLAZA_STARS, TILES, describe_hex
from engine.akropolis.rules import ALL_TILES_STACKS, STANDARD_STACKS
from engine.akropolis.spec import Akropolis

PLAYER_COUNTS = Akropolis.player_counts


def hex_name(code: int) -> str:
    kind, colour = describe_hex(code)
    if colour is None:
        return kind
    stars = f" ({PLAZA_STARS[colour]}★)" if kind == "plaza" else ""
    return f"{colour} {kind}{stars}"


def stacks() -> ComponentTable:
    rows = []
    for players in PLAYER_COUNTS:
        used = sum(1 for tile in TILES.values() if tile.min_players <= players)
        rows.append(_stack_row(str(players), players, used, STANDARD_STACKS))
    for players, count in ALL_TILES_STACKS.items():
        rows.append(_stack_row(f"{players}, all_tiles", players, len(TILES), count))
    return table(
        "akropolis-stacks",
        "Tiles in play and how they are dealt, by number of players: the face-down stacks, "
        "and the tiles left for the Construction Site (site)",
        ("players", "tiles", "stacks", "per stack", "site"),
        rows,
    )


def _stack_row(label: str, players: int, used: int, stack_count: int) -> tuple[object, ...]:
    size = players + 1
    return (label, used, stack_count, size, used - stack_count * size)


def composition() -> ComponentTable:
    codes = sorted({code for tile in TILES.values() for code in tile.hexes}, key=_order)
    counts = {
        players: Counter(
            code for tile in TILES.values() if tile.min_players <= players for code in tile.hexes
        )
        for players in PLAYER_COUNTS
    }
    totals = {
        players: sum(1 for t in TILES.values() if t.min_players <= players)
        for players in PLAYER_COUNTS
    }
    return table(
        "akropolis-composition",
        f"What the tiles in play hold, hex by hex ({totals[2]} tiles for 2 players, "
        f"{totals[3]} for 3, {totals[4]} for 4 and with all_tiles)",
        ("hex", *(f"{n} players" for n in PLAYER_COUNTS)),
        [(hex_name(code), *(counts[n][code] for n in PLAYER_COUNTS)) for code in codes],
    )


def _order(code: int) -> tuple[int, int]:
    kind, colour = describe_hex(code)
    return ("district", "plaza", "quarry").index(kind), COLORS.index(colour) if colour else 0


def every_tile() -> ComponentTable:
    return table(
        "akropolis-tiles",
        f"All {len(TILES)} tiles: their hexes in the order an action lays them",
        ("tile", "from players", "hexes[0]", "hexes[1]", "hexes[2]"),
        [
            (tile.id, tile.min_players, *(hex_name(code) for code in tile.hexes))
            for tile in sorted(TILES.values(), key=lambda t: t.id)
        ],
        folded=True,
    )


def tables() -> list[ComponentTable]:
    return [stacks(), composition(), every_tile()]
