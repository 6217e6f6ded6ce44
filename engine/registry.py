"""Game id -> the game's spec (engine.spec.GameSpec): its rules and what Agon shows of it.

Adding a game is its package under engine/, with a `spec.py` declaring `SPEC`, and one
line in `_GAMES` (docs/adding-a-game.md). From that line on the game is playable (`agon
play`, its ladders, bots' matches), listed by the API and the pages, and shown by the
replay viewer: everything else about it (spectator, blurb, protocol section, limits,
score table, optional capabilities, the name of its board renderer) is read from its
spec. Only a board renderer's script, if the game has one, lives outside the package,
with the web app's static files; without one the viewer shows the text render.

A game kept outside this package (the tests' own game) is added by the environment:
`AGON_EXTRA_GAMES="id=module:SPEC,..."`, read on every lookup, so that a process and the
processes it starts agree on the games.

Each game's package is imported the first time the game is asked for, so a process
that plays one game does not pay for loading the others.
"""

from __future__ import annotations

import os

from engine.lazy import import_module

TYPE_CHECKING = False  # not typing's: a bot's start imports no `typing` (agon_bot.wire)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from engine.core import JSON, Game, JSONValue
    from engine.spec import GameSpec

_GAMES: dict[str, str] = {
    "akropolis": "engine.akropolis.spec:SPEC",
    "architekton": "engine.architekton.spec:SPEC",
    "attika": "engine.attika.spec:SPEC",
    "megalopolis": "engine.megalopolis.spec:SPEC",
}

EXTRA_GAMES_VARIABLE = "AGON_EXTRA_GAMES"

_COMPACT_FORMS: dict[str, str] = {
    "akropolis": "engine.akropolis.compact:ExpandedActions.from_json",
}
"""Where a game's compact legal actions are expanded without loading the rest of the game
(for a bot's first turn): the spec's own `legal_actions_from_json`, reached by a shorter
road (tests/engine/test_registry.py checks that it is the same function)."""


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r}; known games: {', '.join(game_ids())}"


_extra_seen: dict[str, dict[str, str]] = {}
_loaded: dict[str, GameSpec[Any]] = {}
"""What `_extra_games` and `_load` gave, by argument (functools' cache is not imported:
`functools` costs a bot's start)."""


def _extra_games(setting: str) -> dict[str, str]:
    if setting in _extra_seen:
        return _extra_seen[setting]
    extra: dict[str, str] = {}
    for entry in filter(None, (part.strip() for part in setting.split(","))):
        game_id, equals, target = entry.partition("=")
        if not equals or ":" not in target:
            raise ValueError(f"{EXTRA_GAMES_VARIABLE}: {entry!r} is not id=module:SPEC")
        extra[game_id.strip()] = target.strip()
    _extra_seen[setting] = extra
    return extra


def _entries() -> dict[str, str]:
    return {**_GAMES, **_extra_games(os.environ.get(EXTRA_GAMES_VARIABLE, ""))}


def _load(target: str) -> GameSpec[Any]:
    if target in _loaded:
        return _loaded[target]
    # Only when a game is loaded: a bot that expands compact actions never needs it.
    from engine.spec import GameSpec

    module_name, _, attribute = target.partition(":")
    spec = getattr(import_module(module_name), attribute)
    if not isinstance(spec, GameSpec):
        raise TypeError(f"{target} is not a GameSpec")
    _loaded[target] = spec
    return spec


def get_spec(game_id: str) -> GameSpec[Any]:
    target = _entries().get(game_id)
    if target is None:
        raise UnknownGame(game_id)
    spec = _load(target)
    if spec.id != game_id:
        raise RuntimeError(f"registry entry {game_id!r} loads the game {spec.id!r}")
    return spec


def get_game(game_id: str) -> Game[Any]:
    return get_spec(game_id).game


def game_ids() -> list[str]:
    return sorted(_entries())


def legal_actions_expander(game_id: str) -> Callable[[JSONValue], Sequence[JSON]] | None:
    """The game's `legal_actions_from_json` (None for a game without a compact form),
    loading as little of the game as it can: the module of `_COMPACT_FORMS` where the
    game has one there, else the whole spec."""
    target = _COMPACT_FORMS.get(game_id)
    if target is None or game_id in _extra_games(os.environ.get(EXTRA_GAMES_VARIABLE, "")):
        return get_spec(game_id).legal_actions_from_json
    module_name, _, path = target.partition(":")
    found: Any = import_module(module_name)
    for attribute in path.split("."):
        found = getattr(found, attribute)
    expander: Callable[[JSONValue], Sequence[JSON]] = found
    return expander
