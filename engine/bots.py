"""The builtin bots every game offers: `random`, `greedy` and the search bots
`mcts-1`, `mcts-2`, `mcts-3` (weakest to strongest, `engine.search`)."""

from __future__ import annotations

from engine.players import Player, RandomBot
from engine.registry import get_game
from engine.rng import derive_seed

SEARCH_BOTS = ("mcts-1", "mcts-2", "mcts-3")
BUILTIN_BOTS = ("random", "greedy", *SEARCH_BOTS)


def builtin_bot(name: str, game_id: str, match_seed: int, seat: int) -> Player:
    """A builtin bot for a seat, seeded from the match seed and the seat."""
    seed = derive_seed(match_seed, name, seat)
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        bot: Player = get_game(game_id).greedy_bot(seed)
        return bot
    if name in SEARCH_BOTS:
        from engine.search.bot import LEVELS, SearchBot  # loaded only by who plays one

        return SearchBot(game_id, LEVELS[name], seed)
    raise ValueError(f"unknown builtin bot {name!r}; builtin bots: {', '.join(BUILTIN_BOTS)}")
