"""The observation and the compact legal actions carry their JSON text (`EncodedJSON`),
built from parts encoded once; the text must be exactly the encoding of the data, and the
data exactly what a fresh reading of the state gives."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from engine.akropolis.actions import LegalActions, placements_of
from engine.akropolis.city import City, scan_legal_triangles
from engine.akropolis.state_json import city_hexes_to_json
from engine.core import EncodedJSON
from sandbox.protocol import encode, turn_message
from tests.engine.akropolis.test_properties import Setup, setups
from tests.engine.support import GAME, play_to_turn, property_settings, random_game


def plain(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


@property_settings(20)
@given(setups())
def test_the_texts_are_the_encoding_of_fresh_data_every_turn(setup: Setup) -> None:
    for state, chosen in random_game(*setup):
        if chosen is None:
            break
        for seat in range(state.players):
            seen = GAME.observation(state, seat)
            assert isinstance(seen, EncodedJSON)
            assert seen.text == plain(seen)
            cities = [
                {"tiles": city.tiles, "hexes": city_hexes_to_json(city)} for city in state.cities
            ]
            assert seen["cities"] == cities
        legal = GAME.legal_actions(state).compact()
        assert isinstance(legal, EncodedJSON)
        assert legal.text == plain(legal)


def test_a_turn_message_is_the_same_bytes_as_encoding_it_whole() -> None:
    for state, chosen in random_game(3, 4, {"all_tiles": False, "markets": True}):
        if chosen is None or state.turn % 7:
            continue
        seat = GAME.current_player(state)
        message = turn_message(
            state.turn, GAME.observation(state, seat), GAME.legal_actions(state), 900
        )
        assert encode(message) == (plain(json.loads(plain(message))) + "\n").encode()
        assert (
            encode({"type": "end", "result": {"scores": [1.5, "é"]}})
            == (plain({"type": "end", "result": {"scores": [1.5, "é"]}}) + "\n").encode()
        )


def test_copies_that_part_ways_each_write_their_own_cities() -> None:
    """The cities' texts are kept and updated from the cells placed on since; a copy
    shares them until it plays on its own: neither may see the other's placements."""
    states = [GAME.copy_state(state) for state, chosen in random_game(5, 2, {}) if chosen]
    state = states[len(states) // 2]
    for seat in range(2):
        GAME.observation(state, seat)  # the texts are kept from here
    twin = GAME.copy_state(state)
    for ours, theirs in ((state, twin), (twin, state)):
        legal = GAME.legal_actions(ours)
        GAME.apply(ours, legal[len(legal) // 3] if ours is state else legal[len(legal) - 1])
        for seen in (GAME.observation(ours, 0), GAME.observation(theirs, 1)):
            assert isinstance(seen, EncodedJSON)
            assert seen.text == plain(seen)
    assert GAME.observation(state, 0) != GAME.observation(twin, 0)


@property_settings(20)
@given(setups(), st.integers(min_value=1, max_value=5))
def test_the_kept_legal_placements_text_follows_copies_and_their_own_moves(
    setup: Setup, every: int
) -> None:
    """Each city keeps its legal placements' texts in step with its legal triangles
    (`City.legal_placements_text`); a copy shares them until it plays on its own. Every
    few turns a copy plays a turn ahead, and every city of both must write what a fresh
    scan of its legal triangles gives."""
    for state, chosen in random_game(*setup):
        if chosen is None:
            break
        legal = GAME.legal_actions(state)
        assert legal.compact_text() == oracle_compact_text(legal)
        if state.turn % every == 0:
            twin = GAME.copy_state(state)
            GAME.apply(twin, legal[len(legal) - 1])
            for city in twin.cities + state.cities:
                assert city.legal_placements_text() == oracle_placements_text(city)


def test_legal_actions_read_after_their_city_changed_still_write_their_own_text() -> None:
    state = play_to_turn(7, 2, 12)
    legal = GAME.legal_actions(state)
    before = legal.compact_text()
    GAME.legal_actions(state).compact_text()
    GAME.apply(state, legal[0])
    GAME.apply(state, GAME.legal_actions(state)[0])
    assert legal.compact_text() == before == oracle_compact_text(legal)


def oracle_compact_text(legal: LegalActions) -> str:
    return plain({"tiles": list(legal.tiles), "placements": legal.placements()})


def oracle_placements_text(city: City) -> str:
    triangles = scan_legal_triangles(city)
    return plain([list(placement) for t in triangles for placement in placements_of(t)])[1:-1]
