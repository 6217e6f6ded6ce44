"""Akropolis component data (tiles, plaza stars, starting stones) and the hex codes.

The data file is a copy of the project's rules data, shipped inside the package.
A hex is coded as a small integer: 0 for a quarry, then one code per district colour
and one per plaza colour, so hot loops compare integers rather than strings.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

COLORS: tuple[str, ...] = ("house", "market", "barracks", "temple", "garden")
KINDS: tuple[str, ...] = ("quarry", "plaza", "district")

QUARRY = 0
DISTRICT: dict[str, int] = {color: 1 + i for i, color in enumerate(COLORS)}
PLAZA: dict[str, int] = {color: 1 + len(COLORS) + i for i, color in enumerate(COLORS)}
HEX_CODES = 1 + 2 * len(COLORS)

COLOR_INDEX_OF: tuple[int, ...] = (-1, *range(len(COLORS)), *range(len(COLORS)))
"""Colour index of each hex code (-1 for a quarry)."""
IS_PLAZA: tuple[bool, ...] = tuple(code > len(COLORS) for code in range(HEX_CODES))

HOUSE, MARKET, BARRACKS, TEMPLE, GARDEN = (DISTRICT[color] for color in COLORS)
MARKET_PLAZA = PLAZA["market"]


@dataclass(frozen=True)
class TileData:
    id: int
    min_players: int
    hexes: tuple[int, int, int]
    """Hex codes in the data file's clockwise order."""


def _load() -> tuple[dict[str, int], tuple[int, ...], dict[int, TileData]]:
    # A plain file read: `importlib.resources` would cost a new process ~8 ms of imports
    # (zipfile, tempfile, ...), and the package is always a folder (see `spec.py`).
    text = Path(__file__).with_name("data").joinpath("tiles.json").read_text("utf-8")
    raw = json.loads(text)
    stars = {color: int(raw["plaza_stars"][color]) for color in COLORS}
    tiles: dict[int, TileData] = {}
    for tile in raw["tiles"]:
        first, second, third = (hex_code(h["kind"], h.get("color")) for h in tile["hexes"])
        codes = (first, second, third)
        tiles[int(tile["id"])] = TileData(int(tile["id"]), int(tile["min_players"]), codes)
    return stars, tuple(int(s) for s in raw["starting_stones_by_seat"]), tiles


def hex_code(kind: str, color: str | None) -> int:
    """The code for a hex described as in the JSON interfaces; ValueError if malformed."""
    if kind == "quarry":
        if color is not None:
            raise ValueError("a quarry has no colour")
        return QUARRY
    table = {"plaza": PLAZA, "district": DISTRICT}.get(kind)
    if table is None:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if color not in table:
        raise ValueError(f"a {kind} needs a colour among {', '.join(COLORS)}, not {color!r}")
    return table[color]


def describe_hex(code: int) -> tuple[str, str | None]:
    """(kind, colour) of a hex code; colour is None for a quarry."""
    if code == QUARRY:
        return "quarry", None
    return ("plaza" if IS_PLAZA[code] else "district"), COLORS[COLOR_INDEX_OF[code]]


PLAZA_STARS, STARTING_STONES, TILES = _load()
STARS_OF_CODE: tuple[int, ...] = tuple(
    PLAZA_STARS[COLORS[COLOR_INDEX_OF[code]]] if IS_PLAZA[code] else 0 for code in range(HEX_CODES)
)
TILE_COUNT_BY_PLAYERS = {n: sum(1 for t in TILES.values() if t.min_players <= n) for n in (2, 3, 4)}
TILE_HEXES: dict[int, tuple[int, int, int]] = {
    tile_id: tile.hexes for tile_id, tile in TILES.items()
}
"""Each tile's hex codes, by tile id (a turn reads them)."""
