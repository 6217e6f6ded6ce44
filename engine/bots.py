"""The builtin bots every game offers: `random` and `greedy`."""

from __future__ import annotations

from engine.players import Player, RandomBot
from engine.registry import get_game
from engine.rng import derive_seed

BUILTIN_BOTS = ("random", "greedy")


def builtin_bot(name: str, game_id: str, match_seed: int, seat: int) -> Player:
    """A builtin bot for a seat, seeded from the match seed and the seat."""
    seed = derive_seed(match_seed, name, seat)
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        bot: Player = get_game(game_id).greedy_bot(seed)
        return bot
    raise ValueError(f"unknown builtin bot {name!r}; builtin bots: {', '.join(BUILTIN_BOTS)}")
