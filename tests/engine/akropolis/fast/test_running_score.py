"""The score kept up to date by `apply` (`RunningScore`, read by `scores` and `result`)
against the full rescoring of `scoring.score_surface`, the oracle, after every action."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.akropolis.city import City
from engine.akropolis.components import (
    BARRACKS,
    GARDEN,
    HOUSE,
    MARKET,
    PLAZA,
    STARS_OF_CODE,
    TEMPLE,
)
from engine.akropolis.fast.lakes import bounds_of
from engine.akropolis.geometry import RING, STEP, TRIANGLE_CELLS, scan_legal_triangles
from engine.akropolis.scoring import VARIANTS, score_surface
from engine.akropolis.state import AkropolisState
from engine.core import JSON
from engine.hexgrid import encode
from engine.rng import SplitMix64
from tests.engine.akropolis.test_properties import Setup, setups
from tests.engine.support import GAME, property_settings

ALL_VARIANTS = dict.fromkeys(VARIANTS, True)


def crowding(state: AkropolisState, triangle: int) -> int:
    """How many cells of a level-1 triangle's ring are occupied (-1 if it is not on level 1)."""
    top = state.cities[GAME.current_player(state)].top
    y, kind = divmod(triangle, 2)
    if any(y + offset in top for offset in TRIANGLE_CELLS[kind]):
        return -1
    return sum(1 for offset in RING[kind] if y + offset in top)


def tight_game(seed: int, players: int, options: dict[str, JSON]) -> Iterator[AkropolisState]:
    """A game whose players put each tile on level 1 where its ring is about as crowded
    as a number drawn each turn (2 to 9 of 9 cells), or stack one at random every third
    turn, so that lakes close and are filled often; yields the state after setup and
    after every action."""
    state = GAME.new_state(seed, players, options)
    rng = SplitMix64(seed)
    yield state
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        triangles = legal.triangles
        if state.turn % 3 == 2:
            triangle = triangles[rng.below(len(triangles))]
        else:
            wanted = 2 + rng.below(8)
            triangle = min(
                triangles, key=lambda t: (abs(crowding(state, t) - wanted), rng.below(4), t)
            )
        index = triangles.index(triangle) * 3 + rng.below(3)
        GAME.apply(state, legal[index + rng.below(len(legal.tiles)) * 3 * len(triangles)])
        yield state


def random_states(setup: Setup) -> Iterator[AkropolisState]:
    seed, players, options = setup
    state = GAME.new_state(seed, players, options)
    rng = SplitMix64(seed)
    yield state
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        GAME.apply(state, legal[rng.below(len(legal))])
        yield state


def assert_equals_a_full_rescoring(state: AkropolisState) -> None:
    variants = state.variants
    oracle = [
        score_surface(city.top, stones, variants)
        for city, stones in zip(state.cities, state.stones, strict=True)
    ]
    assert [GAME.city_score(state, seat) for seat in range(state.players)] == oracle
    assert GAME.scores(state) == [score.total for score in oracle]
    assert [GAME.score(state, seat) for seat in range(state.players)] == [
        score.total for score in oracle
    ]


@property_settings(30)
@given(setups())
def test_the_running_score_equals_a_full_rescoring_after_every_action(setup: Setup) -> None:
    for state in random_states(setup):
        assert_equals_a_full_rescoring(state)


@property_settings(30)
@given(
    st.integers(min_value=0, max_value=2**64 - 1),
    st.sampled_from([2, 3, 4]),
    st.sampled_from([{}, ALL_VARIANTS, {"barracks": True}, {"gardens": True}]),
)
def test_it_equals_a_full_rescoring_when_lakes_close(
    seed: int, players: int, options: dict[str, JSON]
) -> None:
    for state in tight_game(seed, players, options):
        assert_equals_a_full_rescoring(state)


def test_the_tight_games_do_close_lakes() -> None:
    """The property above is only worth something if its games make lakes."""
    closed = 0
    for seed in range(5):
        lakes_before = [0] * 2
        for state in tight_game(seed, 2, ALL_VARIANTS):
            for seat, city in enumerate(state.cities):
                lakes = len(city.running_score(state.variants).lakes)
                closed += lakes > lakes_before[seat]
                lakes_before[seat] = lakes
    assert closed >= 5


@pytest.mark.parametrize("hole", [0, 1, 2], ids=["three-cell lake", "four", "five"])
def test_a_tile_filling_a_lake_is_followed(hole: int) -> None:
    """Random games seldom leave a lake wide enough for a tile: a city of gardens,
    barracks, markets and temples around a hole of three cells or more, then a tile in it."""
    y, kind = 2 * encode(0, 0), 0
    triangle = y + kind
    hole_cells = {y // 2 + offset for offset in TRIANGLE_CELLS[kind]}
    hole_cells |= set(sorted(y // 2 + offset for offset in RING[kind])[:hole])
    around = {cell + step for cell in hole_cells for step in STEP} - hole_cells
    codes = (GARDEN, BARRACKS, MARKET, TEMPLE, HOUSE, PLAZA["garden"], PLAZA["barracks"])
    city = City()
    for i, cell in enumerate(sorted(around)):
        city.top[cell] = (1, codes[i % len(codes)], STARS_OF_CODE[codes[i % len(codes)]])
        city.tile_at[cell] = 1 + i // 3
    running = city.running_score(VARIANTS)
    assert running.lakes == hole_cells
    city.legal_triangles()
    cells = (y // 2, y // 2 + STEP[0], y // 2 + STEP[1])
    city.place(triangle, cells, (TEMPLE, GARDEN, BARRACKS), 99)
    assert running.lakes == hole_cells - set(cells)
    assert running.city_score(city.top, 0) == score_surface(city.top, 0, VARIANTS)
    assert city.legal_triangles() == scan_legal_triangles(city.top, city.tile_at)


def test_a_running_score_started_mid_game_follows_the_game_as_well() -> None:
    states = random_states((7, 3, {"markets": True, "temples": True}))
    for state in states:
        if state.turn == 20:
            break
    revived = GAME.state_from_json(GAME.state_to_json(state))
    legal = GAME.legal_actions(revived)
    for index in range(0, len(legal), max(1, len(legal) // 40)):
        after = GAME.copy_state(revived)
        GAME.apply(after, legal[index])
        assert_equals_a_full_rescoring(after)


def test_a_copy_and_its_original_go_their_own_ways_though_they_share_cities() -> None:
    for state in random_states((11, 4, ALL_VARIANTS)):
        if state.turn == 25:
            break
    GAME.scores(state)
    before = GAME.state_to_json(state)
    legal = GAME.legal_actions(state)
    copies = []
    for index in (0, len(legal) // 2, len(legal) - 1):
        after = GAME.copy_state(state)
        GAME.apply(after, legal[index])
        assert_equals_a_full_rescoring(after)
        copies.append((after, GAME.state_to_json(after)))
    assert GAME.state_to_json(state) == before
    assert_equals_a_full_rescoring(state)
    GAME.apply(state, legal[1])
    for after, seen in copies:
        assert GAME.state_to_json(after) == seen
        assert_equals_a_full_rescoring(after)
        mover = after.cities[after.turn % 4]
        assert mover.legal_triangles() == scan_legal_triangles(mover.top, mover.tile_at)


@property_settings(30)
@given(setups(), st.integers(min_value=1, max_value=12))
def test_copies_that_put_off_their_legal_placements_catch_up_exactly(
    setup: Setup, every: int
) -> None:
    """A copy follows a game without asking for its legal actions, so its cities pile up
    placements to follow (a copy shares the cached list); every few turns it is asked,
    and must agree with a full scan."""
    seed, players, options = setup
    leader = GAME.new_state(seed, players, options)
    follower = GAME.copy_state(leader)
    rng = SplitMix64(seed)
    while not GAME.is_over(leader):
        legal = GAME.legal_actions(leader)
        action = legal[rng.below(len(legal))]
        GAME.apply(leader, action)
        follower = GAME.copy_state(follower)
        GAME.apply(follower, action)
        if leader.turn % every == 0:
            for city in follower.cities:
                assert city.legal_triangles() == scan_legal_triangles(city.top, city.tile_at)
    assert GAME.state_to_json(follower) == GAME.state_to_json(leader)


@property_settings(20)
@given(setups(), st.integers(min_value=0, max_value=30))
def test_a_score_started_late_learns_its_bounds_at_the_next_level_1_tile(
    setup: Setup, start: int
) -> None:
    """A score started from scratch (`RunningScore.of`, as `result` does) leaves the
    city's bounds to the first tile that may close a lake: lakes closed after that must
    still be found."""
    seed, players, options = setup
    for state in tight_game(seed, players, options):
        if state.turn == start:
            state = GAME.state_from_json(GAME.state_to_json(state))
            break
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        GAME.apply(state, legal[(state.turn * 7919) % len(legal)])
        assert_equals_a_full_rescoring(state)


@given(st.sets(st.tuples(st.integers(-30, 30), st.integers(-30, 30)), max_size=40))
def test_bounds_are_the_lowest_and_highest_coordinates(cells: set[tuple[int, int]]) -> None:
    coordinates = cells or {(0, 0)}
    assert bounds_of({encode(q, r) for q, r in cells}) == (
        min(q for q, _ in coordinates),
        max(q for q, _ in coordinates),
        min(r for _, r in coordinates),
        max(r for _, r in coordinates),
    )


@property_settings(30)
@given(setups())
def test_one_seats_score_on_copies_equals_a_full_rescoring(setup: Setup) -> None:
    """A lookahead reads one seat's score on a copy of each position (`score`, the kept
    total of the cities the move left alone): it must be the full rescoring's, and
    reading it must not stale the original's."""
    seed, players, _ = setup
    rng = SplitMix64(seed ^ 0x5EED)
    for state in random_states(setup):
        if GAME.is_over(state):
            break
        variants = state.variants
        legal = GAME.legal_actions(state)
        seat = rng.below(players)
        after = GAME.copy_state(state)
        GAME.apply(after, legal[rng.below(len(legal))])
        for position in (after, state):
            city = position.cities[seat]
            oracle = score_surface(city.top, position.stones[seat], variants).total
            assert GAME.score(position, seat) == oracle


@property_settings(30)
@given(setups(), st.integers(min_value=1, max_value=2**32))
def test_applying_a_legal_index_is_applying_its_action(setup: Setup, pick: int) -> None:
    """`apply_legal` (no checks, for lookahead) leaves the same state and scores as
    `apply` of the same action, on copies of every position of a random game."""
    for state in random_states(setup):
        if GAME.is_over(state):
            break
        legal = GAME.legal_actions(state)
        index = pick % len(legal)
        checked, trusted = GAME.copy_state(state), GAME.copy_state(state)
        GAME.apply(checked, legal[index])
        GAME.apply_legal(trusted, legal, index)
        assert GAME.state_to_json(trusted) == GAME.state_to_json(checked)
        assert GAME.scores(trusted) == GAME.scores(checked)
        mover = trusted.cities[state.turn % state.players]
        assert mover.legal_triangles() == scan_legal_triangles(mover.top, mover.tile_at)
