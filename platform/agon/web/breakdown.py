"""The final score breakdown of a match as a table: the game's `details` per seat, laid out
by the game's spec (`score_breakdown`) or, for a game without one, key by key."""

from __future__ import annotations

import re
from typing import Any

from engine.registry import UnknownGame, get_spec
from engine.spec import ScoreBreakdown


def _words(key: str) -> str:
    return key.replace("_", " ").capitalize()


_IDENTIFIER = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)+")
"""An engine's name for something (`power_stations`, `all_buildings`): shown in words."""


def _cell(value: Any) -> str:
    if value is None:
        return "\N{EN DASH}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str) and _IDENTIFIER.fullmatch(value):
        return value.replace("_", " ")
    return str(value)


def _flat(detail: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in detail.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flat(value, f"{name} "))
        else:
            flat[name] = value
    return flat


def _plain(details: list[dict[str, Any]]) -> ScoreBreakdown:
    flats = [_flat(detail) for detail in details]
    keys: list[str] = []
    for flat in flats:
        keys += [key for key in flat if key not in keys]
    return ScoreBreakdown(
        [_words(key) for key in keys], [[_cell(flat.get(key)) for key in keys] for flat in flats]
    )


def breakdown(game: str, details: list[Any]) -> ScoreBreakdown | None:
    """The table, or None without details."""
    if not details or not all(isinstance(d, dict) for d in details):
        return None
    try:
        lay_out = get_spec(game).score_breakdown
    except UnknownGame:
        lay_out = None
    return lay_out(details) if lay_out is not None else _plain(details)
