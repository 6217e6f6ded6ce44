"""Akropolis' compiled core, fourth stage: a city's legal triangles kept in C
(`LegalTriangles`) and the deal's shuffle, against the pure-Python reference.

Under the core a city's legal list and set become one `LegalTriangles` at its first
placement: it must read as the list and the set it stands for (length, indexing,
iteration, `in`, equality, repr, copies and pickles), hold what Python's list holds
after every update of random games (placed, put off and replayed, the placements'
texts kept in step; `test_native_turn` and `test_native_core` compare whole games), and
go back to a list and a set when the core is turned off mid-game. The core's shuffle
must deal what `SplitMix64.shuffle` deals. Where the core is not built these tests skip,
or fail where AGON_TEST_REQUIRE asks for it (`make test`).
"""

from __future__ import annotations

import copy
import pickle
from types import ModuleType

import pytest

from engine.akropolis import native
from engine.akropolis.city import City
from engine.akropolis.fast.city_cache import PLACEMENT_TEXTS
from engine.akropolis.geometry import scan_legal_triangles
from engine.rng import SplitMix64
from tests.engine.support import GAME

IDS = [4, 10, 11, 2**40, 2**40 + 7]


def same(one: object, other: object) -> bool:
    """Whether the two are one object (the core keeps its legal triangles in both of a
    city's slots, typed as the list and the set they stand for)."""
    return one is other


def test_legal_triangles_read_as_the_list_and_the_set_they_stand_for(core: ModuleType) -> None:
    kept = core.LegalTriangles(IDS)
    assert len(kept) == len(IDS) and bool(kept) and not core.LegalTriangles()
    assert [kept[i] for i in range(len(IDS))] == IDS and kept[-1] == IDS[-1]
    assert list(kept) == IDS and tuple(kept) == tuple(IDS)
    assert kept == IDS and kept == tuple(IDS) and kept == set(IDS) and kept == frozenset(IDS)
    assert kept != IDS[:-1] and kept != [*IDS[:-1], 8] and kept != set(IDS[1:]) and kept != "x"
    assert all(i in kept for i in IDS)
    assert 5 not in kept and 2**80 not in kept and "4" not in kept and -4 not in kept
    assert repr(kept) == repr(IDS) == str(kept)
    with pytest.raises(IndexError):
        kept[len(IDS)]
    with pytest.raises(TypeError):
        hash(kept)


def test_legal_triangles_copy_and_pickle_apart(core: ModuleType) -> None:
    kept = core.LegalTriangles(IDS)
    pickled = pickle.loads(pickle.dumps(kept))  # noqa: S301 - our own bytes
    for twin in (kept.copy(), copy.deepcopy(kept), pickled):
        assert type(twin) is core.LegalTriangles and twin == kept and twin is not kept
    state = GAME.new_state(3, 2, {})
    GAME.apply_legal(state, GAME.legal_actions(state), 0)
    again = pickle.loads(pickle.dumps(state))  # noqa: S301 - our own bytes
    assert [c.legal_triangles() for c in again.cities] == [
        c.legal_triangles() for c in state.cities
    ]


@pytest.mark.parametrize("ids", [[3, 2], [2, 2], [1, "2"], [-1], [2**70]])
def test_legal_triangles_refuse_what_is_not_sorted_distinct_ids(
    core: ModuleType, ids: list[object]
) -> None:
    with pytest.raises((TypeError, ValueError, OverflowError)):
        core.LegalTriangles(ids)


def test_a_city_keeps_its_legal_triangles_in_c_from_its_first_placement(
    core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(native, "CORE", core)
    state = GAME.new_state(8, 2, {})
    city = state.cities[0]
    assert type(city.kept.legal) is list  # the starting city's, scanned once in Python
    GAME.apply_legal(state, GAME.legal_actions(state), 5)
    kept = city.kept
    assert type(kept.legal) is core.LegalTriangles and same(kept.legal_set, kept.legal)
    assert kept.legal == scan_legal_triangles(city.top, city.tile_at)
    # A copy shares it, both put their updates off, and the first asked copies it.
    twin = GAME.copy_state(state)
    GAME.apply_legal(twin, GAME.legal_actions(twin), 0)
    GAME.apply_legal(twin, GAME.legal_actions(twin), 3)
    moved = twin.cities[0]
    assert moved.kept.legal is kept.legal and moved.kept.pending
    ahead = moved.legal_triangles()
    assert type(ahead) is core.LegalTriangles and ahead is not kept.legal
    assert same(moved.kept.legal_set, ahead) and not moved.kept.pending
    assert ahead == scan_legal_triangles(moved.top, moved.tile_at)
    assert kept.legal == scan_legal_triangles(city.top, city.tile_at)


def test_the_placements_texts_follow_the_legal_triangles_kept_in_c(
    core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compact legal actions keep each triangle's text beside it: the core inserts
    and removes them in step, placed and replayed."""
    monkeypatch.setattr(native, "CORE", core)
    state = GAME.new_state(9, 3, {"all_tiles": True})
    rng = SplitMix64(9)
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        legal.compact_text()
        if rng.below(3) == 0:
            twin = GAME.copy_state(state)
            GAME.apply_legal(twin, legal, rng.below(len(legal)))
            if not GAME.is_over(twin):
                GAME.legal_actions(twin).compact_text()
        GAME.apply_legal(state, legal, rng.below(len(legal)))
        for city in state.cities:
            kept = city.kept
            if kept.legal_texts is not None and not kept.legal_shared:
                assert kept.legal_texts == [PLACEMENT_TEXTS[t] for t in city.legal_triangles()]
    assert any(type(c.kept.legal) is core.LegalTriangles for c in state.cities)


def test_a_game_goes_on_in_pure_python_when_the_core_is_turned_off(
    core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cities whose legal triangles the core kept go back to a list and a set, and the
    game ends as a game played in pure Python throughout."""
    for seed, players in ((31, 2), (32, 4)):
        shown = []
        for switched in (True, False):
            monkeypatch.setattr(native, "CORE", core if switched else None)
            state = GAME.new_state(seed, players, {"gardens": True})
            rng = SplitMix64(seed)
            while not GAME.is_over(state):
                if state.turn == 10:
                    monkeypatch.setattr(native, "CORE", None)
                legal = GAME.legal_actions(state)
                GAME.apply_legal(state, legal, rng.below(len(legal)))
            assert all(type(city.kept.legal) is list for city in state.cities)
            shown.append(GAME.result(state).to_json())
        assert shown[0] == shown[1]


@pytest.mark.parametrize("size", [0, 1, 2, 3, 37, 49, 61, 300])
def test_the_cores_shuffle_deals_what_splitmix64_deals(core: ModuleType, size: int) -> None:
    for seed in (0, 1, 2**63 + 5, 2**64 - 1, 123456789):
        items, expected = list(range(size)), list(range(size))
        rng = SplitMix64(seed)
        rng.shuffle(expected)
        assert core.shuffle(items, SplitMix64(seed).state) == rng.state
        assert items == expected


def test_games_are_dealt_the_same_with_the_core_and_without(
    core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    dealt = []
    for used in (core, None):
        monkeypatch.setattr(native, "CORE", used)
        dealt.append(
            [
                GAME.state_to_json(GAME.new_state(seed, players, {"all_tiles": players < 4}))
                for seed in (0, 7, 2**63 + 3, 2**64 - 1)
                for players in (2, 3, 4)
            ]
        )
    assert dealt[0] == dealt[1]


def test_the_core_refuses_a_legal_set_that_is_not_its_legal_triangles(core: ModuleType) -> None:
    city = City.starting()
    kept = core.LegalTriangles(city.legal_triangles())
    with pytest.raises(TypeError, match="LegalTriangles in both"):
        core.update_legal(city.top, kept, set(kept), None, {}, kept[0], 1, True)
    with pytest.raises(TypeError):
        core.shuffle((1, 2), 0)
