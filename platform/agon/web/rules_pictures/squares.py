"""Squares for the rules pages of the square-grid games (Architekton, Megalopolis): cell
(x, y) of `engine.squaregrid` (x east, y north) drawn as the replay viewer draws it, y
growing up the picture."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.safestring import SafeString

from agon.web import svg
from agon.web.rules_pictures.figure import EMPTY_FILL, EMPTY_STROKE, INK, MUTED_INK
from agon.web.rules_pictures.marks import arrow
from engine.squaregrid import DIRECTIONS, Cell

CELL = 36.0
"""A cell's side, in picture units."""
DIRECTION_NAMES = ("N", "E", "S", "W")
"""The names of `squaregrid.DIRECTIONS`, direction 0 to 3."""


def centre(x: int, y: int, cell: float = CELL) -> tuple[float, float]:
    return x * cell, -y * cell


def block(radius: int) -> list[Cell]:
    return [(x, y) for y in range(radius, -radius - 1, -1) for x in range(-radius, radius + 1)]


def square(
    x: int,
    y: int,
    fill: str,
    *,
    stroke: str = "#ffffff",
    stroke_width: float = 1.0,
    inside: Iterable[SafeString] = (),
    data: dict[str, object] | None = None,
    cell: float = CELL,
    rounded: float = 0.0,
) -> SafeString:
    """One cell on (x, y), with more drawn inside it (around its centre)."""
    px, py = centre(x, y, cell)
    half = cell / 2 - stroke_width / 2
    shape = svg.empty(
        "rect",
        {
            "x": -half,
            "y": -half,
            "width": 2 * half,
            "height": 2 * half,
            "rx": rounded or None,
            "fill": fill,
            "stroke": stroke,
            "stroke-width": float(stroke_width),
        },
    )
    attrs: dict[str, object] = {
        "class": "cell",
        "transform": f"translate({svg.number(px)} {svg.number(py)})",
        "data-x": x,
        "data-y": y,
        **{f"data-{name}": value for name, value in (data or {}).items()},
    }
    return svg.group(attrs, [shape, *inside])


def coordinate_label(x: int, y: int, colour: str = INK, *, dy: float = 0.0) -> SafeString:
    return svg.text(0.0, dy, f"{x},{y}", {"font-size": 9.5, "fill": colour})


def plain_cell(x: int, y: int, fill: str = EMPTY_FILL, *, note: str = "") -> SafeString:
    """A cell of the grid with its coordinates, and a note under them if any."""
    inside = [coordinate_label(x, y, dy=-5.5 if note else 0.0)]
    if note:
        inside.append(svg.text(0.0, 7.0, note, {"font-size": 8, "fill": MUTED_INK}))
    return square(x, y, fill, stroke=EMPTY_STROKE, inside=inside, data={"kind": "empty"})


def direction_notes() -> dict[Cell, str]:
    """The neighbours of (0, 0) by their direction's name and number."""
    return {cell: f"{DIRECTION_NAMES[d]} ({d})" for d, cell in enumerate(DIRECTIONS)}


def axes(radius: int) -> list[SafeString]:
    """Arrows beyond a block of `radius`: the ways x grows (east) and y grows (north)."""
    reach, tip = (radius + 0.6) * CELL, (radius + 1.3) * CELL
    return [arrow((reach, 0.0), (tip, 0.0), "+x"), arrow((0.0, -reach), (0.0, -tip), "+y")]


def axes_reach(radius: int) -> list[tuple[float, float]]:
    return [((radius + 2) * CELL, 0.0), (0.0, -(radius + 1.8) * CELL)]


def spots(cells: Iterable[Cell], cell: float = CELL) -> list[tuple[float, float]]:
    return [centre(x, y, cell) for x, y in cells]
