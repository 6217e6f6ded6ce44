"""`fast.observation_text` and `fast.legal_text`: the texts a boxed bot is sent are
written from texts kept per tile and per action; they must be exactly the encoding of
the plain observation and of the legal actions' list, for every seat and every turn,
decisions owed included."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from engine.architekton import ARCHITEKTON
from engine.architekton.fast.observation_text import observation_text
from engine.architekton.observation import observation
from engine.rng import SplitMix64
from tests.engine.support import property_settings


def plain(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


@property_settings(25)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_the_texts_are_the_encoding_of_the_plain_data_every_turn(seed: int) -> None:
    state = ARCHITEKTON.new_state(seed, 2, {})
    rng = SplitMix64(seed)
    while True:
        for seat in range(state.players):
            assert observation_text(state, seat) == plain(observation(state, seat))
        legal = ARCHITEKTON.legal_actions(state)
        assert legal.compact_text() == plain(list(legal))
        if ARCHITEKTON.is_over(state):
            break
        ARCHITEKTON.apply(state, legal[rng.below(len(legal))])
