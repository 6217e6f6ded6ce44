"""`fast.observation_text`, the observation's JSON text written from parts kept between
turns, against the plain `observation` encoded: on random games, on copies that part
ways, on cities changed a lot since they were last written, and on stacks the text of
which is kept."""

from __future__ import annotations

import json

from hypothesis import given

from engine.akropolis.fast.observation_text import MAX_CHANGED_CELLS, observation_text
from engine.akropolis.observation import observation
from engine.akropolis.state import AkropolisState
from engine.akropolis.state_json import city_hexes_to_json
from sandbox.protocol import encode, turn_message
from tests.engine.akropolis.test_properties import Setup, setups
from tests.engine.support import GAME, play_to_turn, property_settings, random_game


def plain(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def assert_written_as_encoded(state: AkropolisState, seat: int) -> None:
    assert observation_text(state, seat) == plain(observation(state, seat))


@property_settings(20)
@given(setups())
def test_the_text_is_the_encoding_of_the_observation_every_turn(setup: Setup) -> None:
    for state, chosen in random_game(*setup):
        if chosen is None:
            break
        for seat in range(state.players):
            assert_written_as_encoded(state, seat)
            cities = [
                {"tiles": city.tiles, "hexes": city_hexes_to_json(city)} for city in state.cities
            ]
            assert observation(state, seat)["cities"] == cities


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
        observation_text(state, seat)  # the texts are kept from here
    twin = GAME.copy_state(state)
    for ours, theirs in ((state, twin), (twin, state)):
        legal = GAME.legal_actions(ours)
        GAME.apply(ours, legal[len(legal) // 3] if ours is state else legal[len(legal) - 1])
        assert_written_as_encoded(ours, 0)
        assert_written_as_encoded(theirs, 1)
    assert observation_text(state, 0) != observation_text(twin, 0)


def test_a_city_changed_past_the_limit_since_its_last_writing_is_written_whole() -> None:
    """A city last written many placements ago (a copy played far ahead) is written
    afresh rather than updated cell by cell; both ways give the encoding."""
    for far in (MAX_CHANGED_CELLS // 3 - 1, MAX_CHANGED_CELLS // 3 + 2):
        state = play_to_turn(9, 2, 2)
        observation_text(state, 0)
        ahead = GAME.copy_state(state)
        for _ in range(2 * far):
            if GAME.is_over(ahead):
                break
            GAME.apply(ahead, GAME.legal_actions(ahead)[0])
        assert_written_as_encoded(ahead, 0)
        assert_written_as_encoded(state, 0)


def test_the_stack_tiles_text_follows_every_stack_drawn_by_copies_and_new_deals() -> None:
    """The stacks' text is kept per first stack left: copies drawing stacks at different
    times, a state rebuilt from JSON (new lists of the same tiles) and one whose stacks
    were dealt again must each be written as encoded."""
    state = play_to_turn(4, 3, 1)
    copies = []
    while not GAME.is_over(state):
        assert_written_as_encoded(state, 0)
        if state.turn % 5 == 0:
            copies.append(GAME.copy_state(state))
        GAME.apply(state, GAME.legal_actions(state)[-1])
    for copy in copies:
        assert_written_as_encoded(copy, 1)
        GAME.apply(copy, GAME.legal_actions(copy)[0])
        assert_written_as_encoded(copy, 1)
        rebuilt = GAME.state_from_json(GAME.state_to_json(copy))
        assert_written_as_encoded(rebuilt, 2)
        rebuilt.stacks = [list(reversed(stack)) for stack in reversed(rebuilt.stacks)]
        assert_written_as_encoded(rebuilt, 2)
