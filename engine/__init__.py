"""Agon's game engine: pure, deterministic rules for every game on the platform.

Nothing here does I/O, reads a clock or touches global randomness: a match is fully
determined by its game, seed, player count, options and the actions taken.
"""

from __future__ import annotations

from engine.lazy import lazy_names

TYPE_CHECKING = False  # not typing's: a bot's start imports no `typing` (agon_bot.wire)
if TYPE_CHECKING:
    from engine.core import Game, IllegalAction, MatchResult
    from engine.registry import game_ids, get_game

__all__ = ["Game", "IllegalAction", "MatchResult", "game_ids", "get_game"]

_HOMES = {
    "Game": "engine.core",
    "IllegalAction": "engine.core",
    "MatchResult": "engine.core",
    "game_ids": "engine.registry",
    "get_game": "engine.registry",
}


__getattr__ = lazy_names(__name__, _HOMES)
