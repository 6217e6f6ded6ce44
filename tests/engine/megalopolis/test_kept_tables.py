"""What the state keeps between calls must be what a fresh computation gives: the open
spaces, updated from the cells that changed, those a scan of the whole table finds; the
legal actions, kept until the next action, those of the position. Every turn of random
games (tiles are played, moved, swapped and taken back), and in copies that part ways."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.megalopolis.actions import LegalActions
from engine.megalopolis.board import open_spaces, sorted_open_spaces
from engine.megalopolis.turns import current_options
from tests.engine.megalopolis.support import GAME, random_game
from tests.engine.support import property_settings


@property_settings(10)
@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=2, max_value=6))
def test_the_kept_open_spaces_are_those_a_scan_finds(seed: int, players: int) -> None:
    copies = []
    for state, _ in random_game(seed, players):
        assert sorted_open_spaces(state) == sorted(open_spaces(state))
        if state.turn % 9 == 0:
            copies.append(GAME.copy_state(state))
    for twin in copies:  # each went on from where its original was, not where it is
        assert sorted_open_spaces(twin) == sorted(open_spaces(twin))


@property_settings(10)
@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=2, max_value=6))
def test_the_kept_legal_actions_are_those_of_the_position(seed: int, players: int) -> None:
    for state, _ in random_game(seed, players):
        fresh = LegalActions.of(current_options(state))
        assert list(GAME.legal_actions(state)) == list(fresh)
