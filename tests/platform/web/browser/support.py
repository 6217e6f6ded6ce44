"""What the browser tests compare the pages with: the engine's own positions."""

from __future__ import annotations

import json

from agon.matches.models import Match
from engine.akropolis.spectator import hex_letter
from engine.hexgrid import decode
from engine.registry import get_game
from engine.replay import Replay, replay_states

City = dict[tuple[int, int], tuple[int, str]]


def stored_replay(match: Match) -> Replay:
    with match.replay.open("rb") as stored:
        return Replay.from_json(json.loads(stored.read()))


def akropolis_at(replay: Replay, step: int) -> tuple[list[City], list[int]]:
    """Every city ((q, r) -> (level, code)) and every score after `step` actions, from
    the engine."""
    game = get_game("akropolis")
    for index, state in enumerate(replay_states(replay)):
        if index == step:
            cities = [
                {
                    decode(cell): (level, hex_letter(code))
                    for cell, (level, code, _) in city.top.items()
                }
                for city in state.cities
            ]
            scores = [game.result(state).scores[seat] for seat in range(state.players)]
            return cities, scores
    raise AssertionError(f"the replay has no step {step}")
