"""Agon's game engine: pure, deterministic rules for every game on the platform.

Nothing here does I/O, reads a clock or touches global randomness: a match is fully
determined by its game, seed, player count, options and the actions taken.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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


def __getattr__(name: str) -> Any:
    # Loaded when first asked for: a bot that imports one module of the engine (a
    # game's compact form, `engine.registry.legal_actions_expander`) loads no more.
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
