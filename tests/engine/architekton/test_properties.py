"""Properties of whole seeded Architekton games (hypothesis; derandomized, no database).
What every game promises is checked in tests/engine/test_game_contract.py; this is
Architekton's own."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.engine.architekton.support import random_game
from tests.engine.support import property_settings

MAX_ACTIONS = 200
"""A bound on any game's length: 44 tiles to place, a pass or two, and at most one
decision per building."""


@property_settings(60)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_every_game_ends_within_the_bound_on_its_actions(seed: int) -> None:
    # random_game yields the finished state last, numbered by the actions taken.
    for actions, _ in enumerate(random_game(seed)):
        assert actions <= MAX_ACTIONS
