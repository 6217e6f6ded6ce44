"""Game id -> game object. A game is playable (`agon play`, its ladders, bots' matches)
once it has its line in `_GAMES`; the web then shows it through its text render, and
richer with a spectator (engine.spectator), a blurb (agon.web.games) and a board
renderer (agon.web's static/web/games/).

Each game's package is imported the first time the game is asked for, so a process
that plays one game does not pay for loading the others.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from engine.core import Game

_GAMES: dict[str, str] = {
    "akropolis": "engine.akropolis:AKROPOLIS",
    "architekton": "engine.architekton:ARCHITEKTON",
    "attika": "engine.attika:ATTIKA",
    "megalopolis": "engine.megalopolis:MEGALOPOLIS",
}


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r}; known games: {', '.join(game_ids())}"


@cache
def _load(game_id: str) -> Game[Any]:
    module_name, _, attribute = _GAMES[game_id].partition(":")
    game: Game[Any] = getattr(importlib.import_module(module_name), attribute)
    if game.id != game_id:
        raise RuntimeError(f"registry entry {game_id!r} loads the game {game.id!r}")
    return game


def get_game(game_id: str) -> Game[Any]:
    if game_id not in _GAMES:
        raise UnknownGame(game_id)
    return _load(game_id)


def game_ids() -> list[str]:
    return sorted(_GAMES)
