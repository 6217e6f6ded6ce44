"""A boxed bot is sent its observation and compact legal actions as text the game writes
directly (`observation_for`, `compact_text`): every turn of whole games of every game
must be the very bytes that encoding the turn message's plain data gives."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import get_game
from engine.core import EncodedText
from engine.match import observation_for
from engine.players import Player, RandomBot
from engine.registry import game_ids
from engine.rng import SplitMix64
from sandbox.protocol import turn_line
from sandbox.referee import BoxBot


class Boxed(Player):
    takes_encoded = BoxBot.takes_encoded


def plain_line(turn: int, observation: Any, legal: Any, time_left_ms: int) -> bytes:
    """The turn message as it would be encoded from plain dicts and lists, whole."""
    compact = getattr(legal, "compact", None)
    message = {
        "type": "turn",
        "move": turn + 1,
        "turn": turn,
        "observation": observation,
        "legal_actions": compact() if compact else list(legal),
        "time_left_ms": time_left_ms,
    }
    text = json.dumps(json.loads(json.dumps(message)), separators=(",", ":"), allow_nan=False)
    return (text + "\n").encode()


@pytest.mark.parametrize(
    ("game_id", "players"),
    [(game_id, players) for game_id in game_ids() for players in get_game(game_id).player_counts],
)
def test_every_turn_of_a_whole_game_is_sent_as_the_same_bytes(game_id: str, players: int) -> None:
    game = get_game(game_id)
    state = game.new_state(11, players, {})
    rng, turn = SplitMix64(11), 0
    while not game.is_over(state):
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        sent = turn_line(turn, observation_for(game, state, seat, Boxed()), legal, 900)
        assert sent == plain_line(turn, game.observation(state, seat), legal, 900)
        game.apply(state, legal[rng.below(len(legal))])
        turn += 1


def test_a_boxed_bot_is_given_akropolis_observations_as_text_only() -> None:
    game = get_game("akropolis")
    state = game.new_state(3, 2, {})
    shown = observation_for(game, state, 0, Boxed())
    assert isinstance(shown, EncodedText)
    assert json.loads(shown.text) == game.observation(state, 0)


def test_an_in_process_bot_is_given_the_observation_itself() -> None:
    game = get_game("akropolis")
    state = game.new_state(3, 2, {})
    shown = observation_for(game, state, 0, RandomBot(1))
    assert shown == game.observation(state, 0)
    assert isinstance(shown, dict)
