"""`fast.observation_text`, `fast.map_text`, `fast.legal_text`: the texts a boxed bot is
sent are
written from parts kept between turns; they must be exactly the encoding of the plain
observation and compact legal actions, for every seat and every turn."""

from __future__ import annotations

import json

from hypothesis import given

from engine.attika.fast.observation_text import observation_text
from tests.engine.attika.support import GAME, random_game
from tests.engine.attika.test_properties import setups
from tests.engine.support import property_settings


def plain(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


@property_settings(8)
@given(setups)
def test_the_texts_are_the_encoding_of_the_plain_data_every_turn(
    setup: tuple[int, int],
) -> None:
    for state, _ in random_game(*setup):
        for seat in range(state.players):
            assert observation_text(state, seat) == plain(GAME.observation(state, seat))
        legal = GAME.legal_actions(state)
        assert legal.compact_text() == plain(legal.compact())


def test_copies_that_part_ways_each_write_their_own_map() -> None:
    """A copy shares the kept map text until either changes its map: neither may then
    see the other's buildings or tiles."""
    states = [GAME.copy_state(state) for state, action in random_game(7, 3) if action]
    for state in states:
        observation_text(state, 0)  # every copy starts from the text its original kept
    for state in states[::5]:
        twin = GAME.copy_state(state)
        for way, one in enumerate((state, twin)):
            for _ in range(12):
                if GAME.is_over(one):
                    break
                legal = GAME.legal_actions(one)
                GAME.apply(one, legal[(one.turn * 7 + way) % len(legal)])
            assert observation_text(one, 1) == plain(GAME.observation(one, 1))
