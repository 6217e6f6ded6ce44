"""Attika actions (plain JSON objects, one per decision) and the legal-action sequence.

    {"type": "draw", "stack": k}                        k: 0 main stack, 1-3 the others
    {"type": "build", "building": id, "q": q, "r": r}  from the board, or the one drawn
    {"type": "keep"}                                    put the drawn building on the board
    {"type": "pay", "cards": {"mountain": a, "hill": b, "forest": c, "water": d}}
    {"type": "extend", "q": q, "r": r, "rotation": o}  place the new map tile
    {"type": "amphora", "use": "action" | "card"}
    {"type": "end_turn"}

The legal actions are the non-build ones (in a fixed order) followed by every legal
build, building by building, each over its sorted cells. Builds are many, so they are
kept as (building, cells) and turned into objects only when asked for.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from typing import Any, overload

from engine import legal
from engine.attika.components import BUILDING_INDEX, BUILDINGS, LANDSCAPES
from engine.core import IllegalAction
from engine.hexgrid import COORD_LIMIT, decode, encode

Parsed = tuple[Any, ...]
BuildOptions = list[tuple[int, Sequence[int]]]
"""(building, the sorted cells it may be built on), buildings in the order asked."""

_FIELDS: dict[str, frozenset[str]] = {
    "draw": frozenset(("type", "stack")),
    "build": frozenset(("type", "building", "q", "r")),
    "keep": frozenset(("type",)),
    "pay": frozenset(("type", "cards")),
    "extend": frozenset(("type", "q", "r", "rotation")),
    "amphora": frozenset(("type", "use")),
    "end_turn": frozenset(("type",)),
}


def _integer(action: dict[str, Any], key: str) -> int:
    value = action[key]
    if type(value) is int:  # the usual case, checked first
        return value
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction(f"action field {key} must be an integer, not {value!r}")
    return value


def _cell(action: dict[str, Any]) -> int:
    q, r = _integer(action, "q"), _integer(action, "r")
    if not (abs(q) < COORD_LIMIT and abs(r) < COORD_LIMIT):
        raise IllegalAction(f"({q}, {r}) is far outside any map")
    return encode(q, r)


def parse_action(action: object) -> Parsed:
    """The action as a tuple: ("draw", k), ("build", building, cell), ("keep",),
    ("pay", cards), ("extend", centre, rotation), ("amphora", use), ("end_turn",)."""
    if not isinstance(action, dict) or action.get("type") not in _FIELDS:
        raise IllegalAction(
            f"an Attika action is an object whose type is one of {', '.join(_FIELDS)}, "
            f"not {action!r}"
        )
    kind = action["type"]
    if action.keys() != _FIELDS[kind]:
        raise IllegalAction(
            f"a {kind} action has exactly the fields {', '.join(sorted(_FIELDS[kind]))}"
        )
    if kind == "draw":
        return ("draw", _integer(action, "stack"))
    if kind == "build":
        building = action["building"]
        if building not in BUILDING_INDEX:
            raise IllegalAction(f"unknown building {building!r}")
        return ("build", BUILDING_INDEX[building], _cell(action))
    if kind == "pay":
        cards = action["cards"]
        if not isinstance(cards, dict) or set(cards) != set(LANDSCAPES):
            raise IllegalAction(f"cards must name each of {', '.join(LANDSCAPES)} once")
        counts = tuple(_integer(cards, name) for name in LANDSCAPES)
        return ("pay", counts)
    if kind == "extend":
        return ("extend", _cell(action), _integer(action, "rotation"))
    if kind == "amphora":
        if action["use"] not in ("action", "card"):
            raise IllegalAction('an amphora is used for "action" or "card"')
        return ("amphora", action["use"])
    return (kind,)


def build_action(building: int, cell: int) -> dict[str, Any]:
    q, r = decode(cell)
    return {"type": "build", "building": BUILDINGS[building].id, "q": q, "r": r}


def pay_action(cards: tuple[int, ...]) -> dict[str, Any]:
    return {"type": "pay", "cards": dict(zip(LANDSCAPES, cards, strict=True))}


def extend_action(centre: int, rotation: int) -> dict[str, Any]:
    q, r = decode(centre)
    return {"type": "extend", "q": q, "r": r, "rotation": rotation}


DRAW_ACTIONS = tuple({"type": "draw", "stack": k} for k in range(4))
KEEP = {"type": "keep"}
AMPHORA_ACTION = {"type": "amphora", "use": "action"}
AMPHORA_CARD = {"type": "amphora", "use": "card"}
END_TURN = {"type": "end_turn"}


class TilePlacements(Sequence[dict[str, Any]]):
    """The extend actions for every sorted centre with every rotation offered, centre by
    centre (`map.tile_placements`' order), made into objects on demand: a random playout
    picks one of some hundreds, so the pairs are never listed."""

    __slots__ = ("centres", "rotations")

    def __init__(self, centres: Sequence[int], rotations: Sequence[int]) -> None:
        self.centres = centres
        self.rotations = rotations

    def __len__(self) -> int:
        return len(self.centres) * len(self.rotations)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("tile placement index out of range")
        centre, rotation = divmod(index, len(self.rotations))
        return extend_action(self.centres[centre], self.rotations[rotation])

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for centre in self.centres:
            for rotation in self.rotations:
                yield extend_action(centre, rotation)


class LegalActions(legal.LegalActions):
    """The non-build actions, then the builds; builds are made into objects on demand."""

    __slots__ = ("_ends", "builds", "others", "size")

    def __init__(self, others: Sequence[dict[str, Any]], builds: BuildOptions) -> None:
        self.others = others
        self.builds = builds
        ends = []
        total = len(others)
        for _, cells in builds:
            total += len(cells)
            ends.append(total)
        self._ends = ends
        self.size = total

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        """The base class's, with a short way for a plain index in range (a playout
        reads one action per decision)."""
        if type(index) is int and 0 <= index < self.size:
            return self.action(index)
        return super().__getitem__(index)

    def first(self) -> dict[str, Any]:
        """The first action, not copied (for reading only)."""
        if self.others:
            return self.others[0]
        building, cells = self.builds[0]
        return build_action(building, cells[0])

    def action(self, index: int) -> dict[str, Any]:
        if index < len(self.others):
            return dict(self.others[index])
        which = bisect.bisect_right(self._ends, index)
        start = self._ends[which - 1] if which else len(self.others)
        building, cells = self.builds[which]
        return build_action(building, cells[index - start])

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for action in self.others:
            yield dict(action)
        for building, cells in self.builds:
            for cell in cells:
                yield build_action(building, cell)

    def parse(self, action: object) -> tuple[object, Parsed]:
        """The action as sent (the non-build ones are compared as sent) and parsed."""
        return action, parse_action(action)

    def contains(self, parsed: tuple[object, Parsed]) -> bool:
        action, (kind, *fields) = parsed
        if kind != "build":
            return action in self.others
        building, cell = fields
        for built, cells in self.builds:
            if built == building:
                at = bisect.bisect_left(cells, cell)
                return at < len(cells) and cells[at] == cell
        return False

    def compact(self) -> dict[str, Any]:
        """The bot protocol's form: `{"actions": [...], "builds": [{"building": id,
        "cells": [[q, r], ...]}, ...]}`, standing for the actions then every build."""
        return {
            "actions": [dict(action) for action in self.others],
            "builds": [
                {"building": BUILDINGS[b].id, "cells": [list(decode(c)) for c in cells]}
                for b, cells in self.builds
            ],
        }

    @classmethod
    def from_json(cls, data: Any) -> LegalActions:
        if not isinstance(data, dict) or set(data) != {"actions", "builds"}:
            raise ValueError('compact legal actions are {"actions": [...], "builds": [...]}')
        builds: BuildOptions = []
        for entry in data["builds"]:
            cells = [encode(int(q), int(r)) for q, r in entry["cells"]]
            builds.append((BUILDING_INDEX[entry["building"]], cells))
        return cls(list(data["actions"]), builds)
