"""Akropolis actions as a bot reads them: the parse of one action and the legal actions
rebuilt from the bot protocol's compact form. Apart from the rest of the rules (which
`engine.akropolis.actions` builds on this), so that a bot's first turn expands its
legal actions without loading the whole game (`engine.registry.legal_actions_expander`).
"""

from __future__ import annotations

from engine import legal
from engine.errors import IllegalAction

TYPE_CHECKING = False  # not typing's: a bot's start imports no `typing` (agon_bot.wire)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

ACTION_KEYS = frozenset(("tile", "q", "r", "rotation"))


def parse_action(action: object) -> tuple[int, int, int, int]:
    """(tile position, q, r, rotation) of a well-formed action; IllegalAction otherwise."""
    if type(action) is dict and len(action) == 4:
        # Read by subscripts (cheaper than `get` calls): four keys, all found, are the
        # four expected.
        try:
            tile, q, r, rotation = action["tile"], action["q"], action["r"], action["rotation"]
        except KeyError:
            pass
        else:
            if (
                type(tile) is int
                and type(q) is int
                and type(r) is int
                and type(rotation) is int
                and 0 <= rotation <= 5
            ):
                return tile, q, r, rotation
    # Not the plain form: the slow checks below name what is wrong.
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
