"""The scoring on boards (`board_score`, what `result` uses for a city that keeps no
running score) against `scoring.score_surface`, the oracle."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.akropolis.components import (
    BARRACKS,
    GARDEN,
    HOUSE,
    MARKET,
    PLAZA,
    STARS_OF_CODE,
    TEMPLE,
)
from engine.akropolis.fast.board_score import WINDOW, boxed_hex_boards, colour_values, hex_boards
from engine.akropolis.geometry import STEP
from engine.akropolis.scoring import VARIANTS, Surface, score_surface
from engine.akropolis.state import AkropolisState
from engine.core import JSON
from engine.hexgrid import decode, encode
from tests.engine.akropolis.fast.test_running_score import ALL_VARIANTS, random_states, tight_game
from tests.engine.akropolis.test_properties import Setup, setups
from tests.engine.support import GAME, property_settings


def oracle_values(top: Surface, variants: tuple[str, ...]) -> tuple[list[int], list[int]]:
    score = score_surface(top, 0, variants)
    return (
        [colour.value for colour in score.colors.values()],
        [colour.stars for colour in score.colors.values()],
    )


def assert_boards_score_every_city_as_the_oracle(state: AkropolisState) -> None:
    variants = state.variants
    for city in state.cities:
        assert colour_values(city.top, variants) == oracle_values(city.top, variants)


def assert_the_result_is_the_oracles(state: AkropolisState) -> None:
    variants = state.variants
    oracle = [
        score_surface(city.top, stones, variants)
        for city, stones in zip(state.cities, state.stones, strict=True)
    ]
    result = GAME.result(state)
    assert result.scores == [score.total for score in oracle]
    assert result.details == [score.to_json() for score in oracle]


@property_settings(30)
@given(setups())
def test_boards_score_every_city_of_a_random_game_as_the_oracle(setup: Setup) -> None:
    for state in random_states(setup):
        assert_boards_score_every_city_as_the_oracle(state)


@property_settings(20)
@given(
    st.integers(min_value=0, max_value=2**64 - 1),
    st.sampled_from([2, 3, 4]),
    st.sampled_from([{}, ALL_VARIANTS, {"barracks": True}, {"gardens": True}]),
)
def test_boards_score_cities_with_lakes_as_the_oracle(
    seed: int, players: int, options: dict[str, JSON]
) -> None:
    for state in tight_game(seed, players, options):
        assert_boards_score_every_city_as_the_oracle(state)


@property_settings(20)
@given(setups())
def test_the_result_is_the_oracles_with_or_without_running_scores(setup: Setup) -> None:
    """A random playout's cities keep no running score, and `result` scores them on
    boards; a lookahead's keep one, and `result` reads it. Both give the oracle's."""
    *_, state = random_states(setup)  # the same state, played to its end
    assert all(city.kept.score is None for city in state.cities)
    assert_the_result_is_the_oracles(state)
    assert all(city.kept.score is None for city in state.cities)
    GAME.scores(state)
    assert all(city.kept.score is not None for city in state.cities)
    assert_the_result_is_the_oracles(state)


def city_around_a_lake(hole: int, centre: int) -> Surface:
    """Districts of every colour around a lake of `hole` cells at `centre`."""
    lake = {centre, *sorted(centre + step for step in STEP)[: hole - 1]}
    around = sorted({cell + step for cell in lake for step in STEP} - lake)
    codes = (GARDEN, BARRACKS, MARKET, TEMPLE, HOUSE, PLAZA["garden"], PLAZA["barracks"])
    return {
        cell: (1, codes[i % len(codes)], STARS_OF_CODE[codes[i % len(codes)]])
        for i, cell in enumerate(around)
    }


@pytest.mark.parametrize("hole", [1, 3, 5])
def test_a_city_around_a_lake_scores_as_the_oracle(hole: int) -> None:
    """Districts of every colour around a lake of a few cells: the barracks next to it
    alone do not score, the gardens next to it count twice under the variant."""
    top = city_around_a_lake(hole, encode(0, 0))
    for variants in ((), VARIANTS, ("gardens",), ("barracks",)):
        assert colour_values(top, variants) == oracle_values(top, variants)
    assert colour_values(top, ("gardens",))[0][4] > colour_values(top, ())[0][4]


def test_a_city_of_no_hexes_scores_nothing() -> None:
    assert colour_values({}, VARIANTS) == ([0] * 5, [0] * 5)


@pytest.mark.parametrize(
    ("q", "r"),
    [(WINDOW - 1, 0), (0, 1 - WINDOW), (WINDOW - 1, 1 - WINDOW), (WINDOW, 0), (0, -WINDOW - 5)],
)
def test_a_city_at_or_past_the_windows_edge_scores_as_the_oracle(q: int, r: int) -> None:
    """Within the window (up to its edge) a city's boards are the window's; a city
    reaching past it gets its own box: both score as the oracle."""
    top = {**city_around_a_lake(3, encode(q, r)), encode(0, 0): (1, HOUSE, 0)}
    within = all(abs(q) <= WINDOW and abs(r) <= WINDOW for q, r in map(decode, top))
    assert (hex_boards(top)[:2] == boxed_hex_boards(top)[:2]) is not within
    for variants in ((), VARIANTS, ("gardens",), ("barracks",)):
        assert colour_values(top, variants) == oracle_values(top, variants)
