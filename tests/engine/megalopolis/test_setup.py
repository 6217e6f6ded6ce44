"""Setup: hands of 5, the face-down cross, the deck, tokens, the first player."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import InvalidOptions
from engine.megalopolis import Megalopolis
from engine.megalopolis.components import ALL_TILES
from tests.engine.megalopolis.support import GAME, cell, state_json


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_each_player_gets_5_tiles_and_15_tokens(players: int) -> None:
    state = GAME.new_state(8, players, {})
    assert [len(hand) for hand in state.hands] == [5] * players
    assert state.supply == [15] * players
    assert len(state.deck) == 120 - 5 * players - 5


def test_five_face_down_tiles_lie_in_a_cross_in_the_middle() -> None:
    state = GAME.new_state(8, 3, {})
    assert set(state.board) == {cell(0, 0), cell(0, 1), cell(1, 0), cell(0, -1), cell(-1, 0)}
    assert all(not tile.face_up and not any(tile.tokens) for tile in state.board.values())


def test_every_tile_is_somewhere_exactly_once() -> None:
    state = GAME.new_state(8, 4, {})
    everywhere = [t for hand in state.hands for t in hand] + state.deck
    everywhere += [tile.kind for tile in state.board.values()]
    assert Counter(everywhere) == Counter(ALL_TILES)


def test_the_first_player_is_drawn_from_the_seed() -> None:
    firsts = {GAME.new_state(seed, 4, {}).first_player for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    state = GAME.new_state(3, 4, {})
    assert GAME.current_player(state) == state.first_player


def test_the_seed_decides_the_setup() -> None:
    assert state_json(GAME.new_state(5, 3, {})) == state_json(GAME.new_state(5, 3, {}))
    assert state_json(GAME.new_state(5, 3, {})) != state_json(GAME.new_state(6, 3, {}))


@pytest.mark.parametrize("players", [1, 7, 2.0, True])
def test_it_is_for_2_to_6_players(game: Megalopolis, players: object) -> None:
    with pytest.raises(InvalidOptions, match="2 to 6 players"):
        game.new_state(1, players, {})  # type: ignore[arg-type]


def test_there_are_no_options(game: Megalopolis) -> None:
    with pytest.raises(InvalidOptions, match="unknown option"):
        game.new_state(1, 2, {"variant": True})
