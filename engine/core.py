"""The contract every game implements, and the types the rest of Agon sees.

A game is a stateless object whose methods take a mutable state; `apply` changes the
state in place (use `copy_state` for lookahead). States, actions and observations are
plain data that round-trip through JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from engine.errors import IllegalAction as IllegalAction  # re-exported: its home for most
from engine.errors import InvalidOptions as InvalidOptions  # re-exported, as IllegalAction

JSONValue = dict[str, "JSONValue"] | list["JSONValue"] | str | int | float | bool | None
"""A JSON value, checked: what crosses the bot protocol (sandbox.protocol, agon_bot) and
the spec's optional capabilities. Code that takes one apart narrows it with isinstance."""

JSON = Any
"""A game's own JSON (its actions, observations and states) as the games and their
callers handle it: unchecked, each game reading shapes it knows. Its values are
JSONValues; the boundary to bots is typed with that."""

StateT = TypeVar("StateT")


_COMPACT_ENCODER = json.JSONEncoder(separators=(",", ":"), allow_nan=False)
"""`json.dumps` with these arguments builds an encoder per call (a third of the cost of
encoding a small value); one, kept, encodes the same."""


_C_MAKE_ENCODER = getattr(json.encoder, "c_make_encoder", None)  # None without _json
_C_ENCODE = (
    None
    if _C_MAKE_ENCODER is None
    else _C_MAKE_ENCODER(
        None,  # no circular check: what is encoded here was built or parsed as JSON
        _COMPACT_ENCODER.default,
        json.encoder.encode_basestring_ascii,
        None,
        ":",
        ",",
        False,
        False,
        False,
    )
)
"""The C encoder `_COMPACT_ENCODER.encode` ends in, called directly: its two Python
frames (`encode`, `iterencode`) cost as much as encoding a small value."""


def compact_json(value: Any) -> str:
    """The encoding the bot protocol sends: no spaces, ASCII, no NaN."""
    if _C_ENCODE is None:
        return _COMPACT_ENCODER.encode(value)
    return "".join(_C_ENCODE(value, 0))


class EncodedJSON(dict[str, Any]):
    """A JSON object that carries its own `compact_json` text, built by a game from parts
    it keeps encoded between turns, so that whoever sends it need not encode it again.
    To everyone else it is the plain dict it equals (do not change it: the text would
    no longer match)."""

    __slots__ = ("text",)

    def __init__(self, data: dict[str, Any], text: str) -> None:
        super().__init__(data)
        self.text = text


class EncodedText:
    """A JSON value known only by its `compact_json` text: what a game writes for a bot
    that sends the value on unread (a boxed bot, see `Player.takes_encoded`), so that no
    dict is built only to be encoded."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"EncodedText({self.text[:60]!r})"


def encoded_text(value: Any) -> str | None:
    """The JSON text an `EncodedJSON` or `EncodedText` carries; None for any other value."""
    if isinstance(value, _ENCODED):
        return value.text
    return None


_ENCODED = (EncodedJSON, EncodedText)


@dataclass(frozen=True)
class OptionSpec:
    """One match option of a game: its name, default and a line of help."""

    name: str
    default: bool
    help: str
    player_counts: tuple[int, ...] = ()
    """Player counts the option may be switched on for; empty means all."""


@dataclass(frozen=True)
class MatchResult:
    """Final scores and ranks per seat (rank 1 is best; tied seats share a rank)."""

    scores: list[int]
    ranks: list[int]
    details: list[JSON] = field(default_factory=list)

    def to_json(self) -> dict[str, JSON]:
        return {"scores": self.scores, "ranks": self.ranks, "details": self.details}


def competition_ranks(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Ranks 1, 1, 3, ... for the given sort keys (higher is better; equal keys tie)."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def ranks_with_faults(result: MatchResult, faulted: set[int]) -> list[int]:
    """A faulted seat ranks below every seat that did not fault; otherwise the game's ranks."""
    keys = [(0 if seat in faulted else 1, -rank) for seat, rank in enumerate(result.ranks)]
    return competition_ranks(keys)


class Game(Protocol, Generic[StateT]):
    """What the referee, the bots and the platform need from a game."""

    id: str
    name: str
    player_counts: tuple[int, ...]
    options: tuple[OptionSpec, ...]
    rules_version: int
    """Bumped whenever a change of this game's rules would make an old replay of it play
    differently. A replay records it (as `engine_version`) and plays back only on the same
    version: replays of the other games are untouched by the change."""

    def new_state(self, seed: int, players: int, options: Mapping[str, JSON]) -> StateT: ...

    def current_player(self, state: StateT) -> int: ...

    def legal_actions(self, state: StateT) -> Sequence[JSON]: ...

    def apply(self, state: StateT, action: JSON) -> None: ...

    def is_over(self, state: StateT) -> bool: ...

    def result(self, state: StateT) -> MatchResult: ...

    def observation(self, state: StateT, player: int) -> JSON: ...

    def observation_text(self, state: StateT, player: int) -> str:
        """`observation(state, player)` as the bot protocol's JSON text, byte for byte
        `compact_json` of it: what the referee sends a boxed bot (`engine.match`).

        This body is the default, for a game that subclasses `Game` and writes no text
        of its own: the observation, encoded. A game with a faster writer defines its
        own, which the contract tests hold to the same bytes."""
        return compact_json(self.observation(state, player))

    def state_to_json(self, state: StateT) -> JSON:
        """The whole state; a dict whose "options" are the match's options as
        `new_state` normalized them (the replay records those)."""
        ...

    def state_from_json(self, data: JSON) -> StateT: ...

    def copy_state(self, state: StateT) -> StateT: ...

    def turn_number(self, state: StateT) -> int: ...

    def render_text(self, state: StateT) -> str: ...

    def greedy_bot(self, seed: int) -> Any: ...


def normalize_options(
    specs: Sequence[OptionSpec], players: int, options: Mapping[str, JSON]
) -> dict[str, bool]:
    """Fill defaults and reject unknown, mistyped or not-allowed options with a clear error."""
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise InvalidOptions(
            f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known)) or 'none'}"
        )
    normalized: dict[str, bool] = {}
    for spec in specs:
        value = options.get(spec.name, spec.default)
        if not isinstance(value, bool):
            raise InvalidOptions(f"option {spec.name} must be true or false, not {value!r}")
        if value and spec.player_counts and players not in spec.player_counts:
            counts = "/".join(str(n) for n in spec.player_counts)
            raise InvalidOptions(f"option {spec.name} is only for {counts} players")
        normalized[spec.name] = value
    return normalized
