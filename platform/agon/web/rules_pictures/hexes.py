"""Hexagons for the rules pages of the hex games (Akropolis, Attika): pointy-top, placed
by the engine's own axial geometry (`engine.hexgrid.to_pixel`), as the replay viewer
draws them."""

from __future__ import annotations

import math
from collections.abc import Iterable

from django.utils.safestring import SafeString

from agon.web import svg
from agon.web.rules_pictures.figure import EMPTY_FILL, EMPTY_STROKE, INK, MUTED_INK
from agon.web.rules_pictures.marks import arrow
from engine.hexgrid import DIRECTIONS, Hex, distance, to_pixel

SIZE = 20.0
"""A hexagon's radius (centre to corner), in picture units."""


def centre(q: int, r: int) -> tuple[float, float]:
    return to_pixel(q, r, SIZE)


def corners(scale: float = 1.0) -> list[tuple[float, float]]:
    radius = SIZE * scale
    return [
        (radius * math.cos(math.radians(60 * k - 30)), radius * math.sin(math.radians(60 * k - 30)))
        for k in range(6)
    ]


def disk(radius: int) -> list[Hex]:
    """The hexes within `radius` steps of (0, 0), sorted by (q, r)."""
    return sorted(
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if distance((0, 0), (q, r)) <= radius
    )


def hexagon(
    q: int,
    r: int,
    fill: str,
    *,
    stroke: str = "#ffffff",
    stroke_width: float = 1.0,
    inside: Iterable[SafeString] = (),
    data: dict[str, object] | None = None,
) -> SafeString:
    """One hexagon on (q, r), with more drawn inside it (around its centre)."""
    return hexagon_at(
        centre(q, r),
        fill,
        stroke=stroke,
        stroke_width=stroke_width,
        inside=inside,
        data={"q": q, "r": r, **(data or {})},
    )


def hexagon_at(
    spot: tuple[float, float],
    fill: str,
    *,
    stroke: str = "#ffffff",
    stroke_width: float = 1.0,
    inside: Iterable[SafeString] = (),
    data: dict[str, object] | None = None,
) -> SafeString:
    """One hexagon centred on a point of the picture (for legends, off the grid)."""
    x, y = spot
    shape = svg.empty(
        "polygon",
        {
            "points": svg.points(corners()),
            "fill": fill,
            "stroke": stroke,
            "stroke-width": float(stroke_width),
            "stroke-linejoin": "round",
        },
    )
    attrs: dict[str, object] = {
        "class": "hex",
        "transform": f"translate({svg.number(x)} {svg.number(y)})",
        **{f"data-{name}": value for name, value in (data or {}).items()},
    }
    return svg.group(attrs, [shape, *inside])


def coordinate_label(q: int, r: int, colour: str = INK, *, y: float = 0.0) -> SafeString:
    return svg.text(0.0, y, f"{q},{r}", {"font-size": 9.5, "fill": colour})


def direction_names() -> dict[Hex, str]:
    """The neighbours of (0, 0) by their name in the rules, `D[k]`."""
    return {direction: f"D[{k}]" for k, direction in enumerate(DIRECTIONS)}


def plain_cell(q: int, r: int) -> SafeString:
    """An empty cell of the grid, with its coordinates (and its name, `D[k]`, next to
    the centre)."""
    name = direction_names().get((q, r))
    lines = [coordinate_label(q, r, y=-5.0 if name else 0.0)]
    if name:
        lines.append(svg.text(0.0, 6.0, name, {"font-size": 8, "fill": MUTED_INK}))
    return hexagon(q, r, EMPTY_FILL, stroke=EMPTY_STROKE, inside=lines, data={"kind": "empty"})


def axes(radius: int) -> list[SafeString]:
    """Arrows beyond a disk of `radius`: the ways q grows, (1, 0), and r grows, (0, 1)."""
    return [
        arrow(_along((1, 0), radius + 0.55), _along((1, 0), radius + 1.35), "+q"),
        arrow(_along((0, 1), radius + 0.55), _along((0, 1), radius + 1.35), "+r"),
    ]


def axes_reach(radius: int) -> list[tuple[float, float]]:
    """Points a picture must hold to show `axes(radius)` with their labels."""
    return [_along((1, 0), radius + 2), _along((0, 1), radius + 1.8)]


def _along(direction: Hex, steps: float) -> tuple[float, float]:
    x, y = to_pixel(direction[0], direction[1], SIZE)
    return x * steps, y * steps


def spots(cells: Iterable[Hex]) -> list[tuple[float, float]]:
    return [centre(q, r) for q, r in cells]
