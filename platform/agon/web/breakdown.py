"""The final score breakdown of a match as a table: the game's `details` per seat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

AKROPOLIS_COLORS = ("house", "market", "barracks", "temple", "garden")


@dataclass(frozen=True)
class Breakdown:
    headers: list[str]
    rows: list[list[str]]
    """One row per seat, as many cells as headers."""
    note: str = ""


def _words(key: str) -> str:
    return key.replace("_", " ").capitalize()


def _cell(value: Any) -> str:
    if value is None:
        return "\N{EN DASH}"
    if isinstance(value, bool):
        return "yes" if value else "no"
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


def breakdown(game: str, details: list[Any]) -> Breakdown | None:
    """The table, or None without details."""
    if not details or not all(isinstance(d, dict) for d in details):
        return None
    if game == "akropolis":
        rows = []
        for detail in details:
            colors = detail.get("colors", {})
            cells = []
            for color in AKROPOLIS_COLORS:
                c = colors.get(color, {})
                value, stars, points = c.get("value", 0), c.get("stars", 0), c.get("points", 0)
                cells.append(f"{value} \N{MULTIPLICATION SIGN} {stars} = {points}")
            rows.append([*cells, _cell(detail.get("stones")), _cell(detail.get("total"))])
        return Breakdown(
            [*(color.capitalize() for color in AKROPOLIS_COLORS), "Stones", "Total"],
            rows,
            "Each district colour scores the value of its districts (their levels) times the "
            "stars of its plazas; each stone is a point.",
        )
    flats = [_flat(detail) for detail in details]
    keys: list[str] = []
    for flat in flats:
        keys += [key for key in flat if key not in keys]
    return Breakdown(
        [_words(key) for key in keys], [[_cell(flat.get(key)) for key in keys] for flat in flats]
    )
