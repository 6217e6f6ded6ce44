"""Properties of whole seeded Megalopolis games for 2 to 6 players (hypothesis;
derandomized, no example database). What every game promises is checked in
tests/engine/test_game_contract.py; these are Megalopolis's own."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.megalopolis.turns import MAX_TURNS_PER_PLAYER
from tests.engine.megalopolis.support import GAME, random_game
from tests.engine.support import property_settings

MAX_ACTIONS_PER_TURN = 40
"""A bound on the decisions of one turn: each text asks at most a few times, and a chain
of texts uses up a hand, deck or face-down tile at each step."""

setups = st.tuples(st.integers(min_value=0, max_value=2**64 - 1), st.sampled_from([2, 3, 4, 5, 6]))
Setup = tuple[int, int]


@property_settings(60)
@given(setups)
def test_every_turn_and_every_game_ends_in_bounded_time(setup: Setup) -> None:
    seed, players = setup
    in_turn = 0
    turns = 0
    state = None
    for state, chosen in random_game(seed, players):
        if chosen is None:
            break
        assert GAME.current_player(state) == state.turn_player
        if state.turns_played != turns:
            turns, in_turn = state.turns_played, 0
        in_turn += 1
        assert in_turn <= MAX_ACTIONS_PER_TURN
    assert state is not None and GAME.is_over(state)
    assert state.turns_played <= MAX_TURNS_PER_PLAYER * players
    assert state.end_reason in ("last_token", "power_stations", "no_player_can_act")
    assert len(GAME.result(state).scores) == players
