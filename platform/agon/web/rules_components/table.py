"""A component table of a rules page: rows made from the engine's data when the page is
drawn, so that the page cannot drift from what the engine plays."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ComponentTable:
    name: str
    """Its id on the page (`components-<name>`)."""
    caption: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    folded: bool = False
    """Long tables start folded (a `<details>` the reader opens)."""


def table(
    name: str,
    caption: str,
    headers: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    folded: bool = False,
) -> ComponentTable:
    return ComponentTable(
        name,
        caption,
        tuple(headers),
        tuple(tuple(str(cell) for cell in row) for row in rows),
        folded,
    )


def source_text(provenance: str) -> str:
    """How a page says where a value comes from: the printed game, or our reconstruction
    of what it does not tell."""
    return {"sourced": "printed", "reconstructed": "ours"}[provenance]
