"""Which encoding each game has (docs/environments.md describes them)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from agon_bot.envs.encoding import Encoding
from engine.registry import get_game

ENCODINGS = {
    "akropolis": "agon_bot.envs.akropolis:AkropolisEncoding",
    "architekton": "agon_bot.envs.architekton:ArchitektonEncoding",
    "attika": "agon_bot.envs.attika:AttikaEncoding",
    "megalopolis": "agon_bot.envs.megalopolis:MegalopolisEncoding",
}


def make_encoding(game_id: str, players: int, options: Mapping[str, Any]) -> Encoding:
    """The encoding of `game_id` for this player count and these options. Its sizes are
    read from the first observation of a match (what any bot sees at its first turn)."""
    target = ENCODINGS.get(game_id)
    if target is None:
        raise ValueError(f"no environment encoding for {game_id!r}; games: {', '.join(ENCODINGS)}")
    module, _, name = target.partition(":")
    cls = getattr(importlib.import_module(module), name)
    game = get_game(game_id)
    first = game.observation(game.new_state(0, players, dict(options)), 0)
    encoding: Encoding = cls(players, options, first)
    return encoding
