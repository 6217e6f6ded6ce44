"""Properties of whole seeded Akropolis games for 2, 3 and 4 players, with any options
(hypothesis; derandomized, no example database). What every game promises is checked in
tests/engine/test_game_contract.py; these are Akropolis's own."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from engine.akropolis.geometry import scan_legal_triangles
from engine.core import JSON
from tests.engine.support import GAME, OPTION_NAMES, property_settings, random_game

TURNS_EACH = {(2, False): 18, (3, False): 16, (4, False): 15, (2, True): 30, (3, True): 20}

Setup = tuple[int, int, dict[str, JSON]]


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    """(seed, players, options): any seed, 2 to 4 players, any variants, all_tiles where
    the player count allows it."""
    seed = draw(st.integers(min_value=0, max_value=2**64 - 1))
    players = draw(st.sampled_from([2, 3, 4]))
    options: dict[str, JSON] = {name: draw(st.booleans()) for name in OPTION_NAMES}
    if players < 4:
        options["all_tiles"] = draw(st.booleans())
    return seed, players, options


@property_settings(50)
@given(setups())
def test_the_seats_take_turns_in_order_and_each_takes_the_same_number(setup: Setup) -> None:
    seed, players, options = setup
    turns: Counter[int] = Counter()
    state = None
    for state, chosen in random_game(seed, players, options):
        if chosen is None:
            break
        seat = GAME.current_player(state)
        assert seat == state.turn % players
        turns[seat] += 1
    assert state is not None and GAME.is_over(state)
    each = TURNS_EACH[(players, bool(options.get("all_tiles")))]
    assert turns == dict.fromkeys(range(players), each)


@property_settings(25)
@given(setups())
def test_the_legal_triangle_cache_always_matches_a_full_scan(setup: Setup) -> None:
    for state, _ in random_game(*setup):
        for city in state.cities:
            assert city.legal_triangles() == scan_legal_triangles(city.top, city.tile_at)
