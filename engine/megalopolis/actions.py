"""Megalopolis actions and the legal-action sequence.

Actions (JSON objects):
- `{"play": kind, "x": x, "y": y}`: play a tile of that kind (from your hand, or from
  the tiles a Library or a Temple offers) on the empty cell (x, y);
- `{"hotel": [x, y]}`: instead of playing a tile, put a token on that Hotel;
- `{"pass": true}`: the player can do nothing else;
- `{"tile": [x, y]}`: choose the tile on (x, y);
- `{"tile": [x, y], "owner": p}`: choose one of player p's tokens on that tile, or
  `"owner": "all"` for all of its tokens (Stadium);
- `{"space": [x, y]}`: choose the empty cell (x, y);
- `{"player": p}`: choose player p;
- `{"done": true}`: stop (Arboretum).

The legal actions are the plays (every kind offered crossed with every space offered)
followed by the other choices; they are built one at a time on demand, and travel in the
bot protocol as `{"play": {"kinds": [...], "spaces": [[x, y], ...]}, "others": [...]}`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Self

from engine import legal
from engine.core import IllegalAction
from engine.megalopolis.components import KIND_NAMES, KIND_OF_NAME
from engine.squaregrid import decode, encode, in_range

Choice = tuple[Any, ...]
"""An action's inner form: ("play", kind, cell), ("hotel", cell), ("pass",), ("tile", cell),
("token", cell, owner) with owner ALL_TOKENS for all of them, ("space", cell),
("player", p), ("done",)."""

ALL_TOKENS = -1


@dataclass
class Options:
    """The choices open now: tiles to play (`kinds` x `spaces`) and any other choices."""

    kinds: list[int] = field(default_factory=list)
    spaces: list[int] = field(default_factory=list)
    others: list[Choice] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.others) or bool(self.kinds and self.spaces)


NONE = Options()


def cell_json(code: int) -> list[int]:
    x, y = decode(code)
    return [x, y]


def choice_json(choice: Choice) -> dict[str, Any]:
    kind = choice[0]
    if kind == "play":
        x, y = decode(choice[2])
        return {"play": KIND_NAMES[choice[1]], "x": x, "y": y}
    if kind in ("hotel", "tile", "space"):
        return {kind: cell_json(choice[1])}
    if kind == "token":
        owner = "all" if choice[2] == ALL_TOKENS else choice[2]
        return {"tile": cell_json(choice[1]), "owner": owner}
    if kind == "player":
        return {"player": choice[1]}
    return {kind: True}  # pass, done


def _integer(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction(f"{what} must be an integer, not {value!r}")
    return value


def _cell(x: object, y: object) -> int:
    x, y = _integer(x, "x"), _integer(y, "y")
    if not in_range(x, y):
        raise IllegalAction(f"({x}, {y}) is far outside the city")
    return encode(x, y)


def _cell_list(value: object, what: str) -> int:
    if not isinstance(value, list) or len(value) != 2:
        raise IllegalAction(f"{what} must be [x, y], not {value!r}")
    return _cell(value[0], value[1])


def parse_action(action: object) -> Choice:
    """The choice a well-formed action stands for; IllegalAction if it is not one."""
    if not isinstance(action, dict):
        raise IllegalAction(f"a Megalopolis action is a JSON object, not {action!r}")
    keys = set(action)
    if keys == {"play", "x", "y"}:
        kind = action["play"]
        if kind not in KIND_OF_NAME:
            raise IllegalAction(f"no kind of tile is called {kind!r}")
        return ("play", KIND_OF_NAME[kind], _cell(action["x"], action["y"]))
    if keys in ({"hotel"}, {"tile"}, {"space"}):
        (key,) = keys
        return (key, _cell_list(action[key], key))
    if keys == {"tile", "owner"}:
        owner = action["owner"]
        owner = ALL_TOKENS if owner == "all" else _integer(owner, "owner")
        return ("token", _cell_list(action["tile"], "tile"), owner)
    if keys == {"player"}:
        return ("player", _integer(action["player"], "player"))
    if keys in ({"pass"}, {"done"}):
        (key,) = keys
        if action[key] is not True:
            raise IllegalAction(f'{{"{key}": true}} is the only form of this action')
        return (key,)
    raise IllegalAction(f"not a Megalopolis action: {action!r}")


class LegalActions(legal.LegalActions):
    """The legal actions as the plays (kinds x spaces, kind-major) then the other
    choices, each built as a JSON object when read."""

    __slots__ = ("kinds", "others", "spaces")

    def __init__(self, kinds: Sequence[int], spaces: Sequence[int], others: Sequence[Choice]):
        self.kinds = tuple(kinds) if spaces else ()
        self.spaces = tuple(spaces) if kinds else ()
        self.others = tuple(others)

    @classmethod
    def of(cls, options: Options) -> Self:
        return cls(options.kinds, options.spaces, options.others)

    def __len__(self) -> int:
        return len(self.kinds) * len(self.spaces) + len(self.others)

    def choice(self, index: int) -> Choice:
        plays = len(self.kinds) * len(self.spaces)
        if index < plays:
            kind, space = divmod(index, len(self.spaces))
            return ("play", self.kinds[kind], self.spaces[space])
        return self.others[index - plays]

    def action(self, index: int) -> dict[str, Any]:
        return choice_json(self.choice(index))

    def parse(self, action: object) -> Choice:
        return parse_action(action)

    def contains(self, choice: Choice) -> bool:
        if choice[0] == "play":
            return choice[1] in self.kinds and choice[2] in self.spaces
        return choice in self.others

    def compact(self) -> dict[str, Any]:
        """The same actions in the bot protocol's compact form."""
        return {
            "play": {
                "kinds": [KIND_NAMES[k] for k in self.kinds],
                "spaces": [cell_json(code) for code in self.spaces],
            },
            "others": [choice_json(choice) for choice in self.others],
        }

    @classmethod
    def from_json(cls, data: Any) -> LegalActions:
        """The legal actions rebuilt from the compact form."""
        if not isinstance(data, dict) or set(data) != {"play", "others"}:
            raise ValueError('compact legal actions are {"play": {...}, "others": [...]}')
        play = data["play"]
        kinds = [KIND_OF_NAME[name] for name in play["kinds"]]
        spaces = [encode(int(x), int(y)) for x, y in play["spaces"]]
        others = [parse_action(action) for action in data["others"]]
        return cls(kinds, spaces, others)
