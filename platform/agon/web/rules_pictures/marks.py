"""Marks the pictures share: arrows."""

from __future__ import annotations

import math

from django.utils.safestring import SafeString

from agon.web import svg
from agon.web.rules_pictures.figure import INK


def arrow(start: tuple[float, float], end: tuple[float, float], label: str) -> SafeString:
    """An arrow from `start` to `end`, with a label past its head if there is one."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head = [
        (x2, y2),
        (x2 - 7 * ux + 3.5 * uy, y2 - 7 * uy - 3.5 * ux),
        (x2 - 7 * ux - 3.5 * uy, y2 - 7 * uy + 3.5 * ux),
    ]
    parts = [
        svg.empty(
            "line",
            {
                "x1": x1,
                "y1": y1,
                "x2": x2 - 5 * ux,
                "y2": y2 - 5 * uy,
                "stroke": INK,
                "stroke-width": 1.6,
            },
        ),
        svg.empty("polygon", {"points": svg.points(head), "fill": INK}),
    ]
    if label:
        parts.append(
            svg.text(
                x2 + 9 * ux, y2 + 9 * uy, label, {"font-size": 10, "font-weight": 700, "fill": INK}
            )
        )
    return svg.group({"class": "arrow"}, parts)
