"""Properties of whole seeded Attika games for 2, 3 and 4 players (hypothesis).

The examples are derandomized and there is no example database, so every run plays the
same games. What every game promises is checked in tests/engine/test_game_contract.py;
these are Attika's own.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.attika import AttikaState
from tests.engine.attika.support import GAME, random_game
from tests.engine.support import property_settings

MAX_DECISIONS = 2000
"""No game may take more decisions than this (random games take a few hundred)."""

Setup = tuple[int, int]
setups = st.tuples(st.integers(min_value=0, max_value=2**64 - 1), st.sampled_from([2, 3, 4]))


def assert_conserved(state: AttikaState) -> None:
    cards = len(state.deck) + sum(state.discard) + sum(sum(s.hand) for s in state.seats)
    assert cards == 60
    assert state.amphora_supply + sum(s.amphorae for s in state.seats) == 15
    in_hand = state.pending is not None and state.pending.kind in ("drawn", "pay")
    for player, seat in enumerate(state.seats):
        held = len(seat.board) + sum(len(s) for s in seat.stacks) + len(seat.placed)
        assert held + (in_hand and player == state.current) == 30


@property_settings(40)
@given(setups)
def test_every_game_ends_in_bounded_time_with_its_pieces_conserved(setup: Setup) -> None:
    seed, players = setup
    state = None
    for decisions, (state, chosen) in enumerate(random_game(seed, players)):
        assert decisions < MAX_DECISIONS
        if chosen is None:
            break
        assert_conserved(state)
    assert state is not None and GAME.is_over(state)
    assert_conserved(state)
