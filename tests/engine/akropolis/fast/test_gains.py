"""The greedy bot's fast gains against the naive oracle that rescores the whole city."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.akropolis import AkropolisState
from engine.akropolis.actions import LegalActions
from engine.akropolis.city import City
from engine.akropolis.components import (
    BARRACKS,
    GARDEN,
    HOUSE,
    MARKET,
    PLAZA,
    QUARRY,
    STARS_OF_CODE,
    TEMPLE,
    TILES,
)
from engine.akropolis.fast.city_gains import CityGains
from engine.akropolis.fast.gains import fast_gains
from engine.akropolis.fast.lakes import lakes_of
from engine.akropolis.fast.triangle_ring import RING_CYCLE
from engine.akropolis.geometry import TRIANGLE_CELLS
from engine.akropolis.greedy import GreedyBot, naive_gains
from engine.akropolis.scoring import outside_empty_cells
from engine.core import JSON
from engine.hexgrid import decode, encode
from engine.players import RandomBot

GAME = engine.get_game("akropolis")
VARIANTS = ("houses", "markets", "barracks", "temples", "gardens")
ALL_VARIANTS: dict[str, JSON] = dict.fromkeys(VARIANTS, True)

HOUSE_ONLY_TILE = 44
"""A house and two quarries."""
TEMPLE_ONLY_TILE = 30
"""A temple and two quarries."""
MARKET_ONLY_TILE = 26
"""A market and two quarries."""

PROPERTY = settings(
    max_examples=60,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

option_sets = st.tuples(st.sets(st.sampled_from(VARIANTS)), st.booleans()).map(
    lambda pair: {**dict.fromkeys(pair[0], True), "all_tiles": pair[1]}
)


def random_position(
    seed: int, players: int, moves: int, options: Mapping[str, JSON]
) -> tuple[AkropolisState, dict[str, Any], LegalActions]:
    """A game after up to `moves` random actions: (state, mover's observation, legal actions)."""
    options = {**options, "all_tiles": bool(options.get("all_tiles")) and players < 4}
    state = GAME.new_state(seed, players, options)
    bot = RandomBot(seed)
    for _ in range(moves):
        after = GAME.copy_state(state)
        GAME.apply(after, bot.act({}, GAME.legal_actions(state)))
        if GAME.is_over(after):
            break
        state = after
    observation = GAME.observation(state, GAME.current_player(state))
    return state, observation, product_of_legal_actions(state)


def hand_built(
    hexes: Mapping[tuple[int, int], tuple[int, int]], tile: int, options: Mapping[str, JSON]
) -> tuple[dict[str, Any], LegalActions]:
    """Seat 0 to move with 0 stones (so only site position 0, holding `tile`), its city the
    given {(q, r): (level, hex code)}, every hex from a different tile."""
    state = GAME.new_state(7, 2, options)
    city = City()
    for uid, ((q, r), (level, code)) in enumerate(hexes.items(), start=100):
        city.top[encode(q, r)] = (level, code, STARS_OF_CODE[code])
        city.tile_at[encode(q, r)] = uid
    city.tiles = len(hexes)
    state.cities[0] = city
    state.stones[0] = 0
    state.site[0] = tile
    return GAME.observation(state, 0), product_of_legal_actions(state)


def product_of_legal_actions(state: AkropolisState) -> LegalActions:
    legal = GAME.legal_actions(state)
    assert isinstance(legal, LegalActions), "the fast gains walk the product form"
    return legal


def gain_of(observation: dict[str, Any], legal: LegalActions, q: int, r: int, rotation: int) -> int:
    index = list(legal).index({"tile": 0, "q": q, "r": r, "rotation": rotation})
    gains = fast_gains(observation, legal)
    assert gains == naive_gains(observation, legal)
    return gains[index]


# --- on positions of random games ---------------------------------------------------------


@PROPERTY
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    moves=st.integers(0, 60),
    options=option_sets,
)
def test_fast_gains_equal_the_naive_ones_on_random_positions(
    seed: int, players: int, moves: int, options: dict[str, JSON]
) -> None:
    _, observation, legal = random_position(seed, players, moves, options)
    naive = naive_gains(observation, legal)
    assert fast_gains(observation, legal) == naive
    assert fast_gains(observation, list(legal)) == naive


def test_fast_gains_equal_the_naive_ones_through_a_whole_game_with_every_variant() -> None:
    state = GAME.new_state(11, 3, ALL_VARIANTS)
    bot = RandomBot(11)
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        if state.turn % 4 == 0:
            observation = GAME.observation(state, GAME.current_player(state))
            assert fast_gains(observation, legal) == naive_gains(observation, legal)
        GAME.apply(state, bot.act({}, legal))


@settings(PROPERTY, max_examples=15)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), moves=st.integers(0, 60))
def test_the_greedy_bot_plays_the_first_best_action_of_the_naive_gains(
    seed: int, players: int, moves: int
) -> None:
    _, observation, legal = random_position(seed, players, moves, ALL_VARIANTS)
    naive = naive_gains(observation, legal)
    best = legal[naive.index(max(naive))]
    assert GreedyBot().act(observation, legal) == best
    assert GreedyBot().act(observation, list(legal)) == best


@settings(PROPERTY, max_examples=25)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), moves=st.integers(4, 60))
def test_a_level_1_tile_closes_a_lake_only_across_two_runs_of_empty_ring_cells(
    seed: int, players: int, moves: int
) -> None:
    """The shortcut behind the fast gains (argued in `gains` above `_OUTSIDE_RING`), and
    the local flood that finds the new lakes, against a full recount of the lakes."""
    state, _, _ = random_position(seed, players, moves, {})
    top = state.cities[GAME.current_player(state)].top
    city = CityGains(dict(top), ())
    for triangle in state.cities[GAME.current_player(state)].legal_triangles():
        y, kind = divmod(triangle, 2)
        a, b, c = (y + offset for offset in TRIANGLE_CELLS[kind])
        cells = (a, b, c)
        if cells[0] in top or cells[0] in city.lakes:
            continue
        empty = [y + offset not in top for offset in RING_CYCLE[kind]]
        runs = [y + RING_CYCLE[kind][j] for j in range(9) if empty[j] and not empty[j - 1]]
        lakes_after = lakes_of(top.keys() | set(cells))
        if len(runs) < 2:
            assert lakes_after == city.lakes
        else:
            assert city.new_lakes(cells, runs) == lakes_after - city.lakes


@settings(PROPERTY, max_examples=200)
@given(st.sets(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=1, max_size=50))
def test_the_lakes_are_the_empty_cells_of_the_box_not_outside(cells: set[tuple[int, int]]) -> None:
    occupied = {encode(q, r) for q, r in cells}
    outside = outside_empty_cells(dict.fromkeys(occupied, (1, HOUSE, 0)))
    qs, rs = [q for q, _ in cells], [r for _, r in cells]
    box = {
        encode(q, r)
        for q in range(min(qs) - 1, max(qs) + 2)
        for r in range(min(rs) - 1, max(rs) + 2)
    }
    assert lakes_of(occupied) == box - outside - occupied
    assert all(decode(cell) not in cells for cell in lakes_of(occupied))


# --- hand-built positions -------------------------------------------------------------------


def test_the_hand_built_positions_have_the_tiles_they_expect() -> None:
    assert TILES[HOUSE_ONLY_TILE].hexes == (HOUSE, QUARRY, QUARRY)
    assert TILES[TEMPLE_ONLY_TILE].hexes == (TEMPLE, QUARRY, QUARRY)
    assert TILES[MARKET_ONLY_TILE].hexes == (MARKET, QUARRY, QUARRY)


@pytest.mark.parametrize(("gardens", "gain"), [(False, -2), (True, 1)])
def test_closing_a_lake_costs_a_barracks_its_edge_and_doubles_a_garden(
    gardens: bool, gain: int
) -> None:
    # The empty cell (0, 0) is enclosed once a tile covers (-1, 1), (0, 1) and (-1, 2).
    hexes = {
        (0, -1): (1, BARRACKS),  # its only empty neighbour is (0, 0)
        (1, -1): (1, GARDEN),  # next to (0, 0)
        (1, 0): (1, PLAZA["barracks"]),  # 2 stars
        (-1, 0): (1, PLAZA["garden"]),  # 3 stars
        (1, -2): (1, QUARRY),
        (0, -2): (1, QUARRY),
        (-1, -1): (1, QUARRY),
    }
    options: dict[str, JSON] = {"gardens": gardens, "barracks": True}
    observation, legal = hand_built(hexes, HOUSE_ONLY_TILE, options)
    # The house on (-1, 2), the quarries on (0, 1) and (-1, 1): the barracks loses its
    # 1 x 2 points; with the gardens variant the garden, now by a lake, gains 1 x 3.
    assert gain_of(observation, legal, -1, 2, 1) == gain


def test_covering_houses_splits_the_largest_group() -> None:
    hexes: dict[tuple[int, int], tuple[int, int]] = {(q, 0): (1, HOUSE) for q in range(5)}
    hexes |= {(q, 2): (1, HOUSE) for q in range(3)}
    hexes |= {(2, 1): (1, QUARRY), (-1, 0): (1, PLAZA["house"])}
    observation, legal = hand_built(hexes, TEMPLE_ONLY_TILE, ALL_VARIANTS)
    # The temple on the quarry (2, 1), quarries on the houses (2, 0) and (3, 0): the five
    # houses in a row fall apart into 2 + 1, the row of three now scores (5 -> 3 points),
    # and the covered quarry gives a stone.
    assert gain_of(observation, legal, 2, 1, 1) == -1


@pytest.mark.parametrize(("markets", "gain"), [(False, -2), (True, -4)])
def test_a_market_next_to_a_market_spoils_both(markets: bool, gain: int) -> None:
    hexes = {(0, 0): (1, PLAZA["market"]), (1, 0): (1, MARKET)}
    observation, legal = hand_built(hexes, MARKET_ONLY_TILE, {"markets": markets})
    # The new market on (2, 0) touches the market on (1, 0) (worth 1, or 2 next to the
    # plaza with the variant, times 2 stars): neither scores now.
    assert gain_of(observation, legal, 2, 0, 1) == gain


def test_a_market_by_a_market_plaza_doubles_with_the_variant() -> None:
    hexes = {(0, 0): (1, PLAZA["market"]), (2, -2): (1, MARKET), (1, -1): (1, QUARRY)}
    observation, legal = hand_built(hexes, MARKET_ONLY_TILE, {"markets": True})
    # The new market on (-1, 0), next to the plaza and no market: 2 x 2 stars.
    assert gain_of(observation, legal, -1, 0, 4) == 4


@pytest.mark.parametrize("options", [{}, ALL_VARIANTS])
def test_a_temple_scores_once_surrounded(options: dict[str, JSON]) -> None:
    hexes = {
        (0, 0): (1, TEMPLE),
        (1, 0): (1, PLAZA["temple"]),  # 2 stars
        (1, -1): (1, QUARRY),
        (0, -1): (1, QUARRY),
        (-1, 0): (1, QUARRY),
    }
    observation, legal = hand_built(hexes, HOUSE_ONLY_TILE, options)
    # The tile fills (-1, 1) and (0, 1), the temple's last empty neighbours: 1 x 2 points.
    assert gain_of(observation, legal, -1, 2, 1) == 2


@pytest.mark.parametrize(
    "hexes",
    [
        [("district", "market"), ("district", "market"), ("plaza", "market")],
        [("district", "market"), ("plaza", "market"), ("district", "house")],
        [("plaza", "house"), ("plaza", "garden"), ("district", "house")],
        [("district", "house"), ("district", "house"), ("district", "house")],
        [("district", "temple"), ("district", "barracks"), ("district", "garden")],
    ],
)
def test_fast_gains_hold_for_tiles_the_box_does_not_have(hexes: list[tuple[str, str]]) -> None:
    for seed, players in ((3, 2), (4, 3), (5, 4)):
        _, observation, legal = random_position(seed, players, 25, ALL_VARIANTS)
        for entry in observation["site"]:
            entry["hexes"] = [
                {"kind": kind, "color": color, **({"stars": 2} if kind == "plaza" else {})}
                for kind, color in hexes
            ]
        assert fast_gains(observation, legal) == naive_gains(observation, legal)


def test_fast_gains_take_a_plain_list_in_any_order() -> None:
    _, observation, legal = random_position(5, 4, 30, ALL_VARIANTS)
    actions = list(legal)[::-1]
    assert fast_gains(observation, actions) == naive_gains(observation, actions)
