"""Real positions for the rules pages' examples: a game of the engine, set up from a seed
and played by the builtin bots for a number of actions. Everything is fixed by the
arguments, so a picture drawn from it is the same on every request."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from engine.bots import builtin_bot
from engine.core import MatchResult
from engine.registry import get_game


@dataclass(frozen=True)
class Position:
    game_id: str
    seed: int
    players: int
    actions: int
    """Actions played (fewer than asked if the game ended first)."""
    over: bool
    observation: dict[str, Any]
    """What seat 0 sees: public data, in the form a bot reads."""
    result: MatchResult
    """The scores as the game would give them if it ended here."""
    state: Any
    """The engine's state itself, for what only the rules code works out."""


@functools.lru_cache(maxsize=16)
def played_position(game_id: str, seed: int, players: int, actions: int) -> Position:
    """The game after `actions` actions (or its end, if sooner) of greedy builtin bots."""
    game = get_game(game_id)
    state = game.new_state(seed, players, {})
    bots = [builtin_bot("greedy", game_id, seed, seat) for seat in range(players)]
    played = 0
    while played < actions and not game.is_over(state):
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        game.apply(state, bots[seat].act(game.observation(state, seat), legal))
        played += 1
    return Position(
        game_id,
        seed,
        players,
        played,
        game.is_over(state),
        dict(game.observation(state, 0)),
        game.result(state),
        state,
    )
