"""The C prototype of the placement step (bench/prototype, benchmark only) against the
Python engine, the oracle: on random games, after every action and on copies, the same
legal triangles and the same scores. Skipped where no C compiler or Python headers are."""

from __future__ import annotations

from types import ModuleType

import pytest

from bench.prototype.build import NoCompiler, build_core
from bench.prototype.c_cities import c_scores, c_state
from engine.akropolis.geometry import scan_legal_triangles
from engine.akropolis.spec import AKROPOLIS
from engine.rng import SplitMix64


@pytest.fixture(scope="module")
def core(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    try:
        return build_core(tmp_path_factory.mktemp("akropolis_core"))
    except NoCompiler as missing:
        pytest.skip(f"the C prototype cannot be built here: {missing}")


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 2), (3, 3), (4, 4), (4, 5)])
def test_the_c_cities_follow_the_engine_through_a_random_game(
    core: ModuleType, players: int, seed: int
) -> None:
    python = AKROPOLIS.new_state(seed, players, {})
    compiled = c_state(core, seed, players)
    rng = SplitMix64(seed)
    turns = 0
    while not AKROPOLIS.is_over(python):
        for seat in range(players):
            assert compiled.cities[seat].legal_triangles() == python.cities[seat].legal_triangles()
        assert c_scores(compiled) == AKROPOLIS.scores(python)
        legal = AKROPOLIS.legal_actions(python)
        action = legal[rng.below(len(legal))]
        # A lookahead's try on a copy changes neither position.
        tried_python, tried_compiled = python.copy(), compiled.copy()
        AKROPOLIS.apply(tried_python, action)
        AKROPOLIS.apply(tried_compiled, action)
        assert c_scores(tried_compiled) == AKROPOLIS.scores(tried_python)
        mover = AKROPOLIS.current_player(python)
        assert (
            tried_compiled.cities[mover].legal_triangles()
            == tried_python.cities[mover].legal_triangles()
        )
        AKROPOLIS.apply(python, action)
        AKROPOLIS.apply(compiled, action)
        assert compiled.stones == python.stones
        turns += 1
    assert c_scores(compiled) == AKROPOLIS.result(python).scores
    assert turns > 0


def test_can_cover_agrees_around_the_city(core: ModuleType) -> None:
    python = AKROPOLIS.new_state(6, 2, {})
    compiled = c_state(core, 6, 2)
    rng = SplitMix64(6)
    for _ in range(12):
        legal = AKROPOLIS.legal_actions(python)
        action = legal[rng.below(len(legal))]
        AKROPOLIS.apply(python, action)
        AKROPOLIS.apply(compiled, action)
    for seat in range(2):
        city = python.cities[seat]
        nearby = {
            t + d
            for t in scan_legal_triangles(city.top, city.tile_at)
            for d in range(-8200, 8201, 1)
        }
        for triangle in sorted(nearby)[::7]:
            assert compiled.cities[seat].can_cover(triangle) == city.is_legal(triangle)
