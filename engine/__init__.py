"""Agon's game engine: pure, deterministic rules for every game on the platform.

Nothing here does I/O, reads a clock or touches global randomness: a match is fully
determined by its game, seed, player count, options and the actions taken.
"""

from engine.core import Game, IllegalAction, MatchResult
from engine.registry import game_ids, get_game

__all__ = ["Game", "IllegalAction", "MatchResult", "game_ids", "get_game"]
