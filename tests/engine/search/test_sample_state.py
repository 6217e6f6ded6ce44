"""Each game's `sample_state`: a whole state the seat to move cannot tell from the truth
(the same observation, the same legal actions), its hidden parts drawn from the stream."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import compact_json
from engine.registry import get_spec
from engine.rng import SplitMix64

GAMES_AND_COUNTS = [
    ("akropolis", 2),
    ("akropolis", 4),
    ("architekton", 2),
    ("attika", 2),
    ("attika", 3),
    ("megalopolis", 2),
    ("megalopolis", 5),
]


def positions(game_id: str, players: int, seed: int, every: int) -> list[Any]:
    """Copies of the states of a random game, one every `every` moves."""
    game = get_spec(game_id).game
    state = game.new_state(seed, players, {})
    rng = SplitMix64(seed)
    kept = []
    moves = 0
    while not game.is_over(state):
        if moves % every == 0:
            kept.append(game.copy_state(state))
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.below(len(legal))])
        moves += 1
    return kept


@pytest.mark.parametrize(("game_id", "players"), GAMES_AND_COUNTS)
def test_a_sampled_state_shows_the_seat_to_move_what_it_saw(game_id: str, players: int) -> None:
    spec = get_spec(game_id)
    game = spec.game
    assert spec.sample_state is not None
    rng = SplitMix64(7)
    for seed in (1, 2):
        for state in positions(game_id, players, seed, every=7):
            seat = game.current_player(state)
            seen = game.observation(state, seat)
            sampled = spec.sample_state(seen, rng)
            assert game.observation(sampled, seat) == seen
            assert [compact_json(a) for a in game.legal_actions(sampled)] == [
                compact_json(a) for a in game.legal_actions(state)
            ]


@pytest.mark.parametrize("game_id", ["akropolis", "architekton", "attika", "megalopolis"])
def test_the_hidden_parts_are_drawn_from_the_stream(game_id: str) -> None:
    spec = get_spec(game_id)
    game = spec.game
    assert spec.sample_state is not None
    state = game.new_state(3, 2, {})
    seen = game.observation(state, game.current_player(state))
    drawn = [game.state_to_json(spec.sample_state(seen, SplitMix64(s))) for s in (1, 1, 2)]
    assert drawn[0] == drawn[1]
    assert drawn[0] != drawn[2]
