"""Game id -> game object. Adding a game is one line in `_GAMES`."""

from __future__ import annotations

from typing import Any

from engine.akropolis import AKROPOLIS
from engine.architekton import ARCHITEKTON
from engine.attika import ATTIKA
from engine.core import Game
from engine.megalopolis import MEGALOPOLIS

_GAMES: dict[str, Game[Any]] = {
    game.id: game for game in (AKROPOLIS, ARCHITEKTON, ATTIKA, MEGALOPOLIS)
}


class UnknownGame(KeyError):
    def __str__(self) -> str:
        return f"unknown game {self.args[0]!r}; known games: {', '.join(game_ids())}"


def get_game(game_id: str) -> Game[Any]:
    try:
        return _GAMES[game_id]
    except KeyError:
        raise UnknownGame(game_id) from None


def game_ids() -> list[str]:
    return sorted(_GAMES)
