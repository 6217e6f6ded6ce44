"""`fast.message_text`: the texts a boxed bot is sent (`observation_text`,
`LegalActionsText.compact_text`) are
written from parts kept between turns; they must be exactly the encoding of the plain
observation and compact legal actions, for every seat and every turn, whatever the
stack of texts being resolved shows (a Library's tiles, a Temple's hand)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from engine.megalopolis import MEGALOPOLIS
from engine.megalopolis.fast.message_text import observation_text
from engine.megalopolis.observation import observation
from tests.engine.megalopolis.support import random_game
from tests.engine.support import property_settings


def plain(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


@property_settings(10)
@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=2, max_value=6))
def test_the_texts_are_the_encoding_of_the_plain_data_every_turn(seed: int, players: int) -> None:
    stacked = 0
    for state, _ in random_game(seed, players):
        stacked += bool(state.stack)
        for seat in range(state.players):
            assert observation_text(state, seat) == plain(observation(state, seat))
        legal = MEGALOPOLIS.legal_actions(state)
        assert legal.compact_text() == plain(legal.compact())
    assert stacked  # some texts were being resolved: their frames were written too
