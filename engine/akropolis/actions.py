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
from engine.akropolis.geometry import TRIANGLE_ACTIONS
from engine.core import IllegalAction
from engine.hexgrid import decode

ACTION_KEYS = frozenset(("tile", "q", "r", "rotation"))


def parse_action(action: object) -> tuple[int, int, int, int]:
    """(tile position, q, r, rotation) of a well-formed action; IllegalAction otherwise."""
    if not isinstance(action, dict) or set(action) != ACTION_KEYS:
        raise IllegalAction(
            'an Akropolis action is an object {"tile": k, "q": q, "r": r, "rotation": o}, '
            f"not {action!r}"
        )
    values = tuple(action[key] for key in ("tile", "q", "r", "rotation"))
    for key, value in zip(("tile", "q", "r", "rotation"), values, strict=True):
        if not isinstance(value, int) or isinstance(value, bool):
            raise IllegalAction(f"action field {key} must be an integer, not {value!r}")
    tile, q, r, rotation = values
    if not 0 <= rotation <= 5:
        raise IllegalAction(f"rotation must be 0..5, not {rotation}")
    return tile, q, r, rotation


def placement_of(triangle: int, which: int) -> tuple[int, int, int]:
    """(q, r, rotation) of the `which`-th (0..2) action covering a triangle."""
    y, kind = divmod(triangle, 2)
    offset, rotation = TRIANGLE_ACTIONS[kind][which]
    q, r = decode(y + offset)
    return q, r, rotation


class LegalActions(legal.LegalActions):
    """The legal actions as a lazy product: affordable positions x legal placements."""

    __slots__ = ("tiles", "triangles")

    def __init__(self, tiles: Sequence[int], triangles: Sequence[int]) -> None:
        self.tiles = tuple(tiles)
        self.triangles = tuple(triangles)

    def __len__(self) -> int:
        return len(self.tiles) * len(self.triangles) * 3

    def action(self, index: int) -> dict[str, Any]:
        tile, rest = divmod(index, 3 * len(self.triangles))
        triangle, which = divmod(rest, 3)
        q, r, rotation = placement_of(self.triangles[triangle], which)
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
        return [list(placement_of(t, which)) for t in self.triangles for which in range(3)]

    def compact(self) -> dict[str, list[Any]]:
        """The same set in the bot protocol's compact form: positions x placements."""
        return {"tiles": list(self.tiles), "placements": self.placements()}


class ExpandedActions(legal.LegalActions):
    """The legal actions rebuilt from the compact form: `{"tiles": [...], "placements":
    [[q, r, rotation], ...]}` stands for every tile with every placement, in that order."""

    __slots__ = ("placements", "tiles")

    def __init__(self, tiles: Sequence[int], placements: Sequence[Sequence[int]]) -> None:
        self.tiles = tuple(tiles)
        self.placements = tuple((int(q), int(r), int(o)) for q, r, o in placements)

    @classmethod
    def from_json(cls, data: Any) -> ExpandedActions:
        if not isinstance(data, dict) or set(data) != {"tiles", "placements"}:
            raise ValueError('compact legal actions are {"tiles": [...], "placements": [...]}')
        return cls(data["tiles"], data["placements"])

    def __len__(self) -> int:
        return len(self.tiles) * len(self.placements)

    def action(self, index: int) -> dict[str, Any]:
        tile, placement = divmod(index, len(self.placements))
        q, r, rotation = self.placements[placement]
        return {"tile": self.tiles[tile], "q": q, "r": r, "rotation": rotation}

    def parse(self, action: object) -> tuple[int, int, int, int]:
        return parse_action(action)

    def contains(self, parsed: tuple[int, int, int, int]) -> bool:
        tile, q, r, rotation = parsed
        return tile in self.tiles and (q, r, rotation) in self.placements

    def compact(self) -> dict[str, list[Any]]:
        return {"tiles": list(self.tiles), "placements": [list(p) for p in self.placements]}
