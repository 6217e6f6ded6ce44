"""Cells taken out of the viewer's words."""

from __future__ import annotations

import re

_PLACE = re.compile(r" (?:with its centre )?at \(-?\d+, -?\d+\)")


def without_places(text: str) -> str:
    """The words without the cells they name (`at (q, r)`): the map differs from match to
    match, the choice does not."""
    return _PLACE.sub("", text)
