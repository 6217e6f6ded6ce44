"""Akropolis scoring of one city, on its visible hexes only.

Per colour: (sum of the values of the districts meeting their placement condition,
doubled where a variant's extra condition holds) x (stars on that colour's plazas).
Stones add one point each.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.akropolis.components import (
    BARRACKS,
    COLOR_INDEX_OF,
    COLORS,
    GARDEN,
    HOUSE,
    IS_PLAZA,
    MARKET,
    MARKET_PLAZA,
    QUARRY,
    STARS_OF_CODE,
    TEMPLE,
    hex_code,
)
from engine.akropolis.geometry import STEP
from engine.core import JSON
from engine.hexgrid import decode, encode

VARIANTS: tuple[str, ...] = ("houses", "markets", "barracks", "temples", "gardens")
"""The scoring variants (match options): each doubles a value that meets an extra
condition. The conditions' numbers are these three, read by the fast paths too:"""
HOUSES_DOUBLED_FROM = 10
"""`houses`: the scoring house group's value is doubled if it is this much or more."""
BARRACKS_DOUBLED_EDGES = (3, 4)
"""`barracks`: a scoring barracks is doubled with this many empty outside neighbours."""
TEMPLES_DOUBLED_FROM_LEVEL = 2
"""`temples`: a scoring temple is doubled on this level or higher."""

Surface = Mapping[int, tuple[int, int, int]]
"""Visible hexes by cell code: (level, hex code, plaza stars)."""

ColorValues = tuple[list[int], list[int]]
"""(values, stars) of the colours, in `COLORS` order."""


@dataclass(frozen=True)
class ColorScore:
    value: int
    stars: int

    @property
    def points(self) -> int:
        return self.value * self.stars


@dataclass(frozen=True)
class CityScore:
    stones: int
    colors: dict[str, ColorScore]

    @property
    def total(self) -> int:
        return self.stones + sum(color.points for color in self.colors.values())

    def to_json(self) -> JSON:
        return details_json(
            self.stones, self.total, ((name, c.value, c.stars) for name, c in self.colors.items())
        )


def details_json(stones: int, total: int, colours: Iterable[tuple[str, int, int]]) -> JSON:
    """A city's score as the result's details show it: `total` (its stones and points),
    its stones, and each (name, value, stars) of `colours` with its points. A random
    playout's result writes it from the values and stars alone, without a `CityScore`."""
    return {
        "total": total,
        "stones": stones,
        "colors": {
            name: {"value": value, "stars": count, "points": value * count}
            for name, value, count in colours
        },
    }


def outside_empty_cells(surface: Surface) -> set[int]:
    """Empty cells inside the city's bounding box (plus a margin of one) that connect to
    the outside through empty cells. Empty cells outside the box are outside too."""
    if not surface:
        return set()
    coords = [decode(cell) for cell in surface]
    q_low = min(q for q, _ in coords) - 1
    q_high = max(q for q, _ in coords) + 1
    r_low = min(r for _, r in coords) - 1
    r_high = max(r for _, r in coords) + 1
    border = [encode(q, r) for q in range(q_low, q_high + 1) for r in (r_low, r_high)]
    border += [encode(q, r) for r in range(r_low + 1, r_high) for q in (q_low, q_high)]
    inside = {encode(q, r) for q in range(q_low + 1, q_high) for r in range(r_low + 1, r_high)}
    seen = set(border)
    frontier = border
    while frontier:
        grown = []
        for cell in frontier:
            for step in STEP:
                nxt = cell + step
                if nxt in inside and nxt not in seen and nxt not in surface:
                    seen.add(nxt)
                    grown.append(nxt)
        frontier = grown
    return seen


def largest_house_group_value(surface: Surface) -> int:
    houses = {cell for cell, (_, code, _) in surface.items() if code == HOUSE}
    best = (0, 0)
    while houses:
        start = houses.pop()
        group_size, group_value = 0, 0
        stack = [start]
        while stack:
            cell = stack.pop()
            group_size += 1
            group_value += surface[cell][0]
            for step in STEP:
                nxt = cell + step
                if nxt in houses:
                    houses.discard(nxt)
                    stack.append(nxt)
        best = max(best, (group_size, group_value))
    return best[1]


def score_surface(surface: Surface, stones: int, variants: Collection[str] = ()) -> CityScore:
    stars = [0] * len(COLORS)
    values = [0] * len(COLORS)
    for _, code, plaza_stars in surface.values():
        if IS_PLAZA[code]:
            stars[COLOR_INDEX_OF[code]] += plaza_stars

    house_value = largest_house_group_value(surface)
    if "houses" in variants and house_value >= HOUSES_DOUBLED_FROM:
        house_value *= 2
    values[COLOR_INDEX_OF[HOUSE]] = house_value

    outside: set[int] | None = None
    for cell, (level, code, _) in surface.items():
        if code == MARKET:
            around = [surface.get(cell + step) for step in STEP]
            if any(h is not None and h[1] == MARKET for h in around):
                continue
            double = "markets" in variants and any(
                h is not None and h[1] == MARKET_PLAZA for h in around
            )
            values[COLOR_INDEX_OF[MARKET]] += level * (2 if double else 1)
        elif code == BARRACKS:
            if outside is None:
                outside = outside_empty_cells(surface)
            edges = sum(1 for step in STEP if cell + step in outside)
            if edges:
                double = "barracks" in variants and edges in BARRACKS_DOUBLED_EDGES
                values[COLOR_INDEX_OF[BARRACKS]] += level * (2 if double else 1)
        elif code == TEMPLE:
            if all(cell + step in surface for step in STEP):
                double = "temples" in variants and level >= TEMPLES_DOUBLED_FROM_LEVEL
                values[COLOR_INDEX_OF[TEMPLE]] += level * (2 if double else 1)
        elif code == GARDEN:
            double = False
            if "gardens" in variants:
                if outside is None:
                    outside = outside_empty_cells(surface)
                double = any(
                    cell + step not in surface and cell + step not in outside for step in STEP
                )
            values[COLOR_INDEX_OF[GARDEN]] += level * (2 if double else 1)

    return CityScore(
        stones=stones,
        colors={name: ColorScore(values[i], stars[i]) for i, name in enumerate(COLORS)},
    )


def placed_surface(
    surface: Surface, action: dict[str, int], codes: Sequence[int]
) -> tuple[Surface, int]:
    """The surface after the action's tile (hex codes) is placed, and the quarries it covers."""
    anchor = encode(action["q"], action["r"])
    rotation = action["rotation"]
    cells = (anchor, anchor + STEP[rotation], anchor + STEP[(rotation + 1) % 6])
    below = surface.get(anchor)
    level = 1 if below is None else below[0] + 1
    after = dict(surface)
    quarries = 0
    for cell, code in zip(cells, codes, strict=True):
        old = surface.get(cell)
        if old is not None and old[1] == QUARRY:
            quarries += 1
        after[cell] = (level, code, STARS_OF_CODE[code])
    return after, quarries


def surface_from_json(hexes: Sequence[dict[str, Any]]) -> dict[int, tuple[int, int, int]]:
    """The visible hexes of a city given as in the observation."""
    surface: dict[int, tuple[int, int, int]] = {}
    for h in hexes:
        code = hex_code(h["kind"], h.get("color"))
        surface[encode(h["q"], h["r"])] = (h["level"], code, h.get("stars", STARS_OF_CODE[code]))
    return surface
