"""Architekton actions and the legal-action sequence.

Actions (JSON objects):
- `{"building": id, "x": x, "y": y, "rotation": r}`: place the display's building tile
  `id` on (x, y), turned r quarter turns clockwise;
- `{"landscape": terrain, "x": x, "y": y}`: place a display landscape of that terrain;
- `{"pass": true}`: nothing can be placed, the turn ends;
- `{"house": [x, y]}`: (no house left) move your house from (x, y) onto the new building;
- `{"remove_house": true}` / `{"remove_house": false}`: whether to remove the house of a
  surrounded building from play to lose one point less.

Legal actions are kept as small tuples and turned into JSON objects only when read.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from engine import legal
from engine.architekton.components import TERRAIN_OF_NAME, TERRAINS
from engine.core import IllegalAction

Raw = tuple[Any, ...]
"""("building", id, x, y, r), ("landscape", terrain, x, y), ("pass",), ("house", x, y),
("remove_house", bool)."""

PASS: dict[str, Any] = {"pass": True}


def action_json(raw: Raw) -> dict[str, Any]:
    kind = raw[0]
    if kind == "building":
        return {"building": raw[1], "x": raw[2], "y": raw[3], "rotation": raw[4]}
    if kind == "landscape":
        return {"landscape": TERRAINS[raw[1]], "x": raw[2], "y": raw[3]}
    if kind == "house":
        return {"house": [raw[1], raw[2]]}
    if kind == "remove_house":
        return {"remove_house": raw[1]}
    return dict(PASS)


def _integer(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction(f"{what} must be an integer, not {value!r}")
    return value


def parse_action(action: object) -> Raw:
    """The raw form of a well-formed action; IllegalAction if it is not one."""
    if not isinstance(action, dict):
        raise IllegalAction(f"an Architekton action is a JSON object, not {action!r}")
    keys = set(action)
    if keys == {"building", "x", "y", "rotation"}:
        rotation = _integer(action["rotation"], "rotation")
        if not 0 <= rotation <= 3:
            raise IllegalAction(f"rotation must be 0..3, not {rotation}")
        return (
            "building",
            _integer(action["building"], "building"),
            _integer(action["x"], "x"),
            _integer(action["y"], "y"),
            rotation,
        )
    if keys == {"landscape", "x", "y"}:
        terrain = action["landscape"]
        if terrain not in TERRAIN_OF_NAME:
            raise IllegalAction(f"landscape must be one of {', '.join(TERRAINS)}, not {terrain!r}")
        return (
            "landscape",
            TERRAIN_OF_NAME[terrain],
            _integer(action["x"], "x"),
            _integer(action["y"], "y"),
        )
    if keys == {"house"}:
        cell = action["house"]
        if not isinstance(cell, list) or len(cell) != 2:
            raise IllegalAction(f"house must be [x, y], not {cell!r}")
        return ("house", _integer(cell[0], "x"), _integer(cell[1], "y"))
    if keys == {"remove_house"}:
        if not isinstance(action["remove_house"], bool):
            raise IllegalAction("remove_house must be true or false")
        return ("remove_house", action["remove_house"])
    if keys == {"pass"} and action["pass"] is True:
        return ("pass",)
    raise IllegalAction(f"not an Architekton action: {action!r}")


class LegalActions(legal.LegalActions):
    """The legal actions in a fixed order, each built as a JSON object when read."""

    __slots__ = ("_set", "raw")

    def __init__(self, raw: Sequence[Raw]) -> None:
        self.raw = tuple(raw)
        self._set: frozenset[Raw] | None = None

    def __len__(self) -> int:
        return len(self.raw)

    def action(self, index: int) -> dict[str, Any]:
        return action_json(self.raw[index])

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return map(action_json, self.raw)

    def parse(self, action: object) -> Raw:
        return parse_action(action)

    def contains(self, parsed: Raw) -> bool:
        if self._set is None:
            self._set = frozenset(self.raw)
        return parsed in self._set
