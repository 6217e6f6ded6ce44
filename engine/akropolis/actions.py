"""Akropolis actions: `{"tile": k, "q": q, "r": r, "rotation": o}`.

The legal actions are every affordable Construction Site position crossed with every
legal placement, so they are kept as that product and built one at a time on demand.
Their order is fixed: by site position, then by triangle id, then by the triangle's
three anchors (see `geometry`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from engine import legal
from engine.akropolis import native
from engine.akropolis.city import City
from engine.akropolis.compact import ExpandedActions as ExpandedActions  # re-exported
from engine.akropolis.compact import parse_action as parse_action  # re-exported
from engine.akropolis.fast.city_cache import PLACEMENT_TEXTS
from engine.akropolis.geometry import TRIANGLE_ACTIONS
from engine.core import EncodedJSON
from engine.hexgrid import decode


def placements_of(triangle: int) -> tuple[tuple[int, int, int], ...]:
    """The three (q, r, rotation) actions covering a triangle, in action order (kept:
    the compact legal actions list them all every turn)."""
    return PLACEMENTS[triangle]


class _Placements(dict[int, tuple[tuple[int, int, int], ...]]):
    """The three placements of each triangle met, kept: read by plain indexing, a third
    of the cost of a cached function's call. Triangles are cells of the bounded grid that
    legal placements reach."""

    def __missing__(self, triangle: int) -> tuple[tuple[int, int, int], ...]:
        placements = self[triangle] = tuple(placement_of(triangle, which) for which in range(3))
        return placements


PLACEMENTS = _Placements()


def placement_of(triangle: int, which: int) -> tuple[int, int, int]:
    """(q, r, rotation) of the `which`-th (0..2) action covering a triangle."""
    y, kind = divmod(triangle, 2)
    offset, rotation = TRIANGLE_ACTIONS[kind][which]
    q, r = decode(y + offset)
    return q, r, rotation


class LegalActions(legal.LegalActions):
    """The legal actions as a lazy product: affordable positions x legal placements."""

    __slots__ = ("city", "city_tiles", "size", "tiles", "triangles")

    def __init__(
        self, tiles: Sequence[int], triangles: Sequence[int], city: City | None = None
    ) -> None:
        self.tiles = tuple(tiles)
        self.triangles = tuple(triangles)
        self.size = len(self.tiles) * len(self.triangles) * 3
        self.city = city
        """The city whose legal triangles these are, which keeps their text: read while
        it has as many tiles as now (a city changes only by a tile placed)."""
        self.city_tiles = -1 if city is None else city.tiles

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: Any) -> Any:
        # The base class's indexing, with the common case (a plain index in range, as a
        # random playout reads one a turn) first and without its extra calls.
        if type(index) is int and 0 <= index < self.size:
            tile, rest = divmod(index, 3 * len(self.triangles))
            q, r, rotation = PLACEMENTS[self.triangles[rest // 3]][rest % 3]
            return {"tile": self.tiles[tile], "q": q, "r": r, "rotation": rotation}
        return super().__getitem__(index)

    def action(self, index: int) -> dict[str, Any]:
        tile, rest = divmod(index, 3 * len(self.triangles))
        q, r, rotation = PLACEMENTS[self.triangles[rest // 3]][rest % 3]
        return {"tile": self.tiles[tile], "q": q, "r": r, "rotation": rotation}

    def __iter__(self) -> Iterator[dict[str, Any]]:
        placements = self.placements()
        for tile in self.tiles:
            for q, r, rotation in placements:
                yield {"tile": tile, "q": q, "r": r, "rotation": rotation}

    def parse(self, action: object) -> tuple[int, int, int, int]:
        return parse_action(action)

    def contains(self, parsed: tuple[int, int, int, int]) -> bool:
        tile, q, r, rotation = parsed
        return tile in self.tiles and [q, r, rotation] in self.placements()

    def placements(self) -> list[list[int]]:
        """Every legal placement as [q, r, rotation], in action order."""
        return [list(placement) for t in self.triangles for placement in placements_of(t)]

    def compact(self) -> EncodedJSON:
        """The same set in the bot protocol's compact form: positions x placements (with
        its JSON text)."""
        data = {"tiles": list(self.tiles), "placements": self.placements()}
        return EncodedJSON(data, self.compact_text())

    def compact_text(self) -> str:
        """`compact()` as JSON text only, written directly (a fast path: it must equal
        `compact_json(compact())`), from each triangle's placements encoded once and
        kept in their order by the city (`fast.city_cache`)."""
        city = self.city
        if city is not None and city.tiles == self.city_tiles:
            placements = city.legal_placements_text()
        else:
            placements = ",".join(map(PLACEMENT_TEXTS.__getitem__, self.triangles))
        return f'{{"tiles":[{",".join(map(str, self.tiles))}],"placements":[{placements}]}}'


# The core makes this module's legal actions: handed over once the class exists (this
# module imports the loader, so the loader cannot import it).
native.hand_over_legal_actions(LegalActions)
