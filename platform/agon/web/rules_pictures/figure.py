"""A picture of a rules page: its SVG, drawn from the engine's data, and a caption that
says what it shows."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.safestring import SafeString


@dataclass(frozen=True)
class Figure:
    svg: SafeString
    caption: str
    size: str = "wide"
    """How wide it may grow on a wide screen: `small`, `medium` or `wide` (agon.css);
    on a narrow one every picture takes the width of the text."""


def plural(count: int, word: str) -> str:
    """`1 stone`, `3 stones`: a count in a caption."""
    return f"{count} {word}{'' if count == 1 else 's'}"


SEAT_COLOURS: tuple[str, ...] = (
    "#1f5bb8",
    "#c2410c",
    "#15803d",
    "#7e22ce",
    "#0e7490",
    "#a16207",
)
"""The players' colours, as agon.css's --seat-0 .. --seat-5 (the viewer reads those)."""
INK = "#1c1d21"
MUTED_INK = "#575a63"
EMPTY_FILL = "#f4f1ea"
EMPTY_STROKE = "#c9c3b6"
WHITE = "#ffffff"
