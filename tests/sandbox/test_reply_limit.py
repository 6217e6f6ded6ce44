"""The longest reply a bot may send (`Limits.message_bytes`) leaves every game's actions
ample room: whole random games of every game at each player count, every legal action
of every turn written as a reply, fit in a sixteenth of it."""

from __future__ import annotations

import json

import pytest

from engine.registry import game_ids, get_game
from engine.rng import SplitMix64
from sandbox.limits import limits_for

ROOM = 16


def longest_reply(game_id: str, seed: int, players: int) -> int:
    game = get_game(game_id)
    state = game.new_state(seed, players, {})
    rng = SplitMix64(seed)
    longest = 0
    while not game.is_over(state):
        legal = game.legal_actions(state)
        for action in legal:
            longest = max(longest, len(json.dumps({"action": action}).encode()))
        game.apply(state, legal[rng.below(len(legal))])
    return longest


@pytest.mark.parametrize("game_id", game_ids())
def test_every_legal_action_fits_a_reply_with_room_to_spare(game_id: str) -> None:
    game = get_game(game_id)
    longest = max(longest_reply(game_id, 1, players) for players in game.player_counts)
    assert longest * ROOM <= limits_for(game_id).message_bytes, longest
