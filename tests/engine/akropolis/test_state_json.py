"""The state's JSON form: a full round-trip, hidden stacks included."""

from __future__ import annotations

import json

import pytest

from engine.akropolis import Akropolis, AkropolisState
from tests.engine.support import ALL_VARIANTS, GAME, play_to_turn, random_game, state_json


def round_trip(state: AkropolisState) -> AkropolisState:
    text = json.dumps(GAME.state_to_json(state))
    return GAME.state_from_json(json.loads(text))


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {}), (4, {}), (2, {"all_tiles": True}), (3, ALL_VARIANTS)],
)
def test_the_json_round_trips_at_every_turn_of_a_game(
    players: int, options: dict[str, bool]
) -> None:
    for state, _ in random_game(44, players, options):
        twin = round_trip(state)
        assert GAME.state_to_json(twin) == GAME.state_to_json(state)
        assert list(GAME.legal_actions(twin)) == list(GAME.legal_actions(state))
        assert GAME.is_over(twin) == GAME.is_over(state)
        assert GAME.result(twin) == GAME.result(state)


def test_a_state_read_back_plays_on_exactly_like_the_original(game: Akropolis) -> None:
    moves = [chosen for _, chosen in random_game(9, 3) if chosen is not None]
    state = game.new_state(9, 3, {})
    for chosen in moves[:20]:
        game.apply(state, chosen)
    twin = round_trip(state)
    for chosen in moves[20:]:
        game.apply(state, chosen)
        game.apply(twin, chosen)
    assert state_json(twin) == state_json(state)
    assert game.is_over(twin)


def test_the_json_holds_everything_including_the_hidden_stacks(game: Akropolis) -> None:
    state = play_to_turn(3, 2, 7)
    data = game.state_to_json(state)
    assert set(data) == {
        "game",
        "seed",
        "players",
        "options",
        "turn",
        "stones",
        "site",
        "stacks",
        "cities",
    }
    assert data["stacks"] == state.stacks
    assert data["seed"] == 3
    assert data["turn"] == 7
    assert all({"q", "r", "level", "kind", "tile"} <= set(h) for h in data["cities"][0]["hexes"])


def test_the_json_is_canonical(game: Akropolis) -> None:
    # The same position reached twice serializes to the same text.
    one = play_to_turn(3, 4, 25)
    two = play_to_turn(3, 4, 25)
    assert state_json(one) == state_json(two)
    assert json.dumps(game.state_to_json(one)) == json.dumps(game.state_to_json(two))


def test_it_refuses_json_that_is_not_an_akropolis_state(game: Akropolis) -> None:
    data = game.state_to_json(game.new_state(1, 2, {}))
    with pytest.raises(ValueError, match="not an Akropolis state"):
        game.state_from_json({**data, "game": "chess"})


def test_a_copy_is_independent_of_the_original(game: Akropolis) -> None:
    state = play_to_turn(5, 3, 10)
    before = state_json(state)
    twin = game.copy_state(state)
    while not game.is_over(twin):
        game.apply(twin, game.legal_actions(twin)[-1])
    assert state_json(state) == before
    assert state_json(game.copy_state(state)) == before
