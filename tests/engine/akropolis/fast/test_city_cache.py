"""What `fast.city_cache` keeps of a city against the plain rules: the legal triangles
against a full scan (`geometry.scan_legal_triangles`), after direct and put-off updates
and across copies, and their placements' text against encoding them."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.akropolis import Akropolis
from engine.akropolis.actions import LegalActions, placements_of
from engine.akropolis.city import City
from engine.akropolis.geometry import scan_legal_triangles
from engine.rng import SplitMix64
from tests.engine.akropolis.test_properties import Setup, setups
from tests.engine.support import GAME, play_to_turn, property_settings, random_game


def plain(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def test_the_triangle_cache_equals_a_full_scan_after_every_move() -> None:
    games = [(seed, players) for seed in range(12) for players in (2, 3, 4)]
    for seed, players in games:
        for state, _ in random_game(seed, players):
            for player, city in enumerate(state.cities):
                assert city.legal_triangles() == scan_legal_triangles(city.top, city.tile_at), (
                    f"seed {seed}, {players} players, turn {state.turn}, city {player}"
                )


def test_direct_and_replayed_updates_both_match_a_full_scan() -> None:
    """A city that follows its own placements (the list exact before each: the direct
    update tries fewer triangles) and a copy that replays the same placements later
    (against the city as it is by then) agree with the scan, on level 1 and higher: the
    moves favour tiles placed on top of others."""
    for seed in range(6):
        state = GAME.new_state(seed, 3, {})
        rng = SplitMix64(seed)
        while not GAME.is_over(state):
            twin = GAME.copy_state(state)
            for city in state.cities:
                city.legal_triangles()  # its own list again: the next updates are direct
            for _ in range(rng.below(6) + 1):
                if GAME.is_over(state):
                    break
                play_on_both(state, twin, rng)
            for city, copied in zip(state.cities, twin.cities, strict=True):
                assert city.legal_triangles() == scan_legal_triangles(city.top, city.tile_at), (
                    f"seed {seed}"
                )
                assert copied.legal_triangles() == scan_legal_triangles(
                    copied.top, copied.tile_at
                ), f"seed {seed}"


def test_a_copied_city_keeps_its_own_cache(game: Akropolis) -> None:
    state = play_to_turn(4, 2, 10)
    twin = game.copy_state(state)
    game.apply(twin, game.legal_actions(twin)[0])
    for city in state.cities:
        assert city.legal_triangles() == scan_legal_triangles(city.top, city.tile_at)
    for city in twin.cities:
        assert city.legal_triangles() == scan_legal_triangles(city.top, city.tile_at)


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
    triangles = scan_legal_triangles(city.top, city.tile_at)
    return plain([list(placement) for t in triangles for placement in placements_of(t)])[1:-1]


def play_on_both(state: Any, twin: Any, rng: SplitMix64) -> None:
    """One move, on a raised triangle where the mover has one, played on `state` and on
    its equal `twin` (the same action: equal states have the same legal actions)."""
    legal = GAME.legal_actions(state)
    city = state.cities[GAME.current_player(state)]
    raised = [i for i, t in enumerate(legal.triangles) if t >> 1 in city.top]
    at = raised[rng.below(len(raised))] if raised else rng.below(len(legal.triangles))
    index = rng.below(len(legal.tiles)) * len(legal.triangles) * 3 + at * 3
    GAME.apply_legal(twin, legal, index)
    GAME.apply_legal(state, legal, index)
