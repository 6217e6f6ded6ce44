"""Akropolis' compiled core, third stage: the rest of a random playout, against the
pure-Python reference: a turn's legal actions (`rules.legal_actions`) and a city scored
from scratch at a game's end (`board_score.colour_values`, the score of a city that
keeps no running score, as a random playout's cities).

The legal actions made in C must hold what Python's hold, slot by slot, on every turn
of random games, on copies (whose legal lists are shared, or whose updates are put
off) and once the game is over. Every city of random games (under each of the 32
sets of variants), cities that stack wherever they can, and made-up cities of any
shape (wider than the window `board_score` favours, full of lakes and house groups)
must get the same values and stars in C and in Python; a playout's result is the same
text with the core and without. Where the core is not built these tests skip, or fail
where AGON_TEST_REQUIRE asks for it (`make test`).
"""

from __future__ import annotations

import itertools
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings

from engine.akropolis import native, rules
from engine.akropolis.actions import LegalActions
from engine.akropolis.components import IS_PLAZA, STARS_OF_CODE
from engine.akropolis.fast.board_score import colour_values, doubled
from engine.akropolis.fast.city_cache import Hex
from engine.akropolis.scoring import VARIANTS
from engine.akropolis.state import AkropolisState
from engine.hexgrid import encode
from engine.rng import SplitMix64
from tests.engine.akropolis.test_properties import Setup, setups
from tests.engine.support import GAME, property_settings

EVERY_VARIANTS = [
    tuple(name for name, on in zip(VARIANTS, flags, strict=True) if on)
    for flags in itertools.product((False, True), repeat=len(VARIANTS))
]
"""The 32 sets of variants, as a state's `variants` names them."""


def assert_same_board_score(core: ModuleType, top: dict[int, Hex]) -> None:
    for variants in EVERY_VARIANTS:
        assert core.board_values(top, doubled(variants)) == colour_values(top, variants), (
            variants,
            top,
        )


# The `core` fixture holds for every example, as meant: it is only read.
@settings(
    property_settings(12),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(setups())
def test_every_city_of_random_games_scores_the_same_in_c_and_in_python(
    core: ModuleType, setup: Setup
) -> None:
    seed, players, options = setup
    state = GAME.new_state(seed, players, dict(options))
    rng = SplitMix64(seed)
    while True:
        for city in state.cities:
            assert_same_board_score(core, city.top)
        if GAME.is_over(state):
            break
        legal = GAME.legal_actions(state)
        GAME.apply_legal(state, legal, rng.below(len(legal)))


def test_stacked_cities_score_the_same_in_c_and_in_python(core: ModuleType) -> None:
    """Games that stack wherever they can: raised temples, covered plazas, lakes."""
    for seed, players in ((5, 2), (6, 3), (7, 4)):
        state = GAME.new_state(seed, players, {})
        rng = SplitMix64(seed)
        while not GAME.is_over(state):
            legal = GAME.legal_actions(state)
            city = state.cities[GAME.current_player(state)]
            triangles = legal.triangles
            raised = [i for i, t in enumerate(triangles) if t >> 1 in city.top]
            at = raised[rng.below(len(raised))] if raised else rng.below(len(triangles))
            index = rng.below(len(legal.tiles)) * len(triangles) * 3 + at * 3
            GAME.apply_legal(state, legal, index)
            assert_same_board_score(core, city.top)


def made_up_city(rng: SplitMix64, reach: int, density: int) -> dict[int, Hex]:
    """A city of any shape: each cell within `reach` of the centre holds a random hex
    (level 1-4, any code, its stars) with a chance of `density` in 8."""
    top: dict[int, Hex] = {}
    for q in range(-reach, reach + 1):
        for r in range(-reach, reach + 1):
            if rng.below(8) < density:
                code = rng.below(len(IS_PLAZA))
                top[encode(q, r)] = (rng.below(4) + 1, code, STARS_OF_CODE[code])
    return top


def test_made_up_cities_of_any_shape_score_the_same_in_c_and_in_python(
    core: ModuleType,
) -> None:
    """Dense cities are full of lakes, surrounded temples and house groups of equal size;
    those reaching past `board_score.WINDOW` take its other path (`boxed_hex_boards`)."""
    rng = SplitMix64(32)
    for reach, density in [(1, 4), (3, 5), (6, 6), (6, 7), (14, 6), (20, 5)] * 4:
        assert_same_board_score(core, made_up_city(rng, reach, density))
    assert_same_board_score(core, {})


def test_a_playouts_result_is_the_same_with_the_core_and_without(
    core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    def results() -> list[str]:
        shown = []
        for seed, players in ((21, 2), (22, 3), (23, 4)):
            options = {name: seed % 2 == 1 for name in VARIANTS}
            state = GAME.new_state(seed, players, options)
            rng = SplitMix64(seed)
            while not GAME.is_over(state):
                legal = GAME.legal_actions(state)
                GAME.apply_legal(state, legal, rng.below(len(legal)))
            shown.append(str(GAME.result(state).to_json()))
        return shown

    monkeypatch.setattr(native, "CORE", core)
    compiled = results()
    monkeypatch.setattr(native, "CORE", None)
    assert compiled == results()


def legal_slots(legal: LegalActions) -> tuple[object, ...]:
    return (type(legal), legal.tiles, legal.triangles, legal.size, legal.city, legal.city_tiles)


def assert_same_legal_actions(core: ModuleType, state: AkropolisState) -> None:
    made = core.legal_actions(state)
    saved, native.CORE = native.CORE, None
    try:
        assert legal_slots(made) == legal_slots(rules.legal_actions(state))
    finally:
        native.CORE = saved
    assert made.city is None or made.city is state.cities[state.turn % state.players]


@settings(
    property_settings(10),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(setups())
def test_every_turns_legal_actions_are_the_same_in_c_and_in_python(
    core: ModuleType, setup: Setup
) -> None:
    seed, players, options = setup
    state = GAME.new_state(seed, players, dict(options))
    rng = SplitMix64(seed)
    while not GAME.is_over(state):
        assert_same_legal_actions(core, state)
        legal = GAME.legal_actions(state)
        if state.turn % 3 == 0:
            # A copy shares its legal lists; a move on it puts its updates off.
            twin = GAME.copy_state(state)
            assert_same_legal_actions(core, twin)
            GAME.apply_legal(twin, legal, rng.below(len(legal)))
            assert_same_legal_actions(core, twin)
        GAME.apply_legal(state, legal, rng.below(len(legal)))
    assert_same_legal_actions(core, state)
    assert core.legal_actions(state).size == 0


def test_the_core_refuses_what_is_not_a_city_board(core: ModuleType) -> None:
    flags = doubled(())
    with pytest.raises(TypeError):
        core.board_values([], flags)
    with pytest.raises(TypeError):
        core.board_values({encode(0, 0): "a hex"}, flags)
    with pytest.raises(ValueError):
        core.board_values({encode(0, 0): (1, len(IS_PLAZA), 0)}, flags)
    with pytest.raises(ValueError):
        core.board_values({}, (True,))
    with pytest.raises(AttributeError):
        core.legal_actions(object())
