"""The example bots in examples/bots/ play Megalopolis (and Architekton) to the end, fed
as over the bot protocol: JSON observations and the compact legal actions."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from agon_bot import Bot as AuthorBot
from agon_bot.runner import legal_actions_from_message
from engine.bots import builtin_bot
from engine.core import JSON
from engine.match import play_match
from engine.players import Player
from engine.registry import get_game
from engine.replay import verify_replay
from sandbox.protocol import legal_actions_json

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "bots"


def example_bot(file: str, class_name: str) -> AuthorBot:
    spec = importlib.util.spec_from_file_location(f"example_{class_name}", EXAMPLES / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    bot: AuthorBot = getattr(module, class_name)()
    return bot


class OverTheProtocol(Player):
    """Hands an author's bot what the referee would send, through JSON."""

    def __init__(self, bot: AuthorBot) -> None:
        self.bot = bot
        self.game_id = ""

    def start(self, info: dict[str, JSON]) -> None:
        self.game_id = str(info["game"])
        self.bot.start(json.loads(json.dumps(info)))

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> JSON:
        sent = json.loads(json.dumps(legal_actions_json(legal_actions)))
        self.bot.time_left_ms = 2000
        legal = legal_actions_from_message(self.game_id, sent)
        return self.bot.act(json.loads(json.dumps(observation)), legal)


def example_match(game_id: str, players: int, seed: int) -> Any:
    bots: list[Player] = [
        OverTheProtocol(example_bot("lookahead_bot.py", "LookaheadBot")),
        OverTheProtocol(example_bot("random_bot.py", "RandomBot")),
    ]
    bots += [builtin_bot("greedy", game_id, seed, seat) for seat in range(2, players)]
    return play_match(
        get_game(game_id),
        seed=seed,
        players=players,
        options={},
        bots=bots,
        bot_ids=[f"seat{seat}" for seat in range(players)],
    )


@pytest.mark.parametrize(("game_id", "players"), [("megalopolis", 3), ("architekton", 2)])
def test_the_example_bots_play_a_whole_game_without_a_fault(game_id: str, players: int) -> None:
    replay = example_match(game_id, players, seed=1)
    assert replay.faults == []
    verify_replay(replay)
