"""Akropolis' compiled core (`engine.akropolis.native`) against the pure-Python engine.

Each update of the legal triangles a random game makes runs both ways, on equal copies,
and must leave the same list, set and texts; whole games and the goldens must play the
same byte for byte with the core and without. Its loader falls back to pure Python,
saying so in one line, wherever the core cannot be used. Where the core is not built
these tests skip, or fail where AGON_TEST_REQUIRE asks for it (`make test`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings

from engine.akropolis import native
from engine.akropolis.city import City
from engine.akropolis.fast.city_cache import CityCache, Hex
from engine.akropolis.geometry import scan_legal_triangles
from engine.rng import SplitMix64
from tests.engine.akropolis.fast.test_city_cache import play_on_both
from tests.engine.akropolis.test_properties import Setup, setups
from tests.engine.goldens.playthroughs import GOLDENS, Golden, build_golden, golden_text
from tests.engine.support import GAME, property_settings


@pytest.fixture
def checked_updates(core: ModuleType, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every legal-triangle update runs in C on the city and in Python on a copy of what
    it keeps; both must agree. Yields the count of updates compared. (Since the second
    stage, the updates made as a tile is placed run inside the core's `place`, not
    through this method: `test_native_turn` compares those, with the whole city.)"""
    monkeypatch.setattr(native, "CORE", core)
    compiled = CityCache.update_legal
    compared = [0]

    def both(
        self: CityCache, top: Mapping[int, Hex], triangle: int, level: int, direct: bool
    ) -> None:
        twin = CityCache.__new__(CityCache)
        twin.legal = None if self.legal is None else list(self.legal)
        twin.legal_set = set(self.legal_set)
        twin.legal_texts = None if self.legal_texts is None else list(self.legal_texts)
        compiled(self, top, triangle, level, direct)
        twin.update_legal_in_python(top, triangle, level, direct)
        assert self.legal == twin.legal, f"triangle {triangle}, level {level}, direct {direct}"
        assert self.legal_set == twin.legal_set
        assert self.legal_texts == twin.legal_texts
        compared[0] += 1

    monkeypatch.setattr(CityCache, "update_legal", both)
    yield compared


def transcript(setup: Setup, copies_every: int) -> list[str]:
    """What a random game shows, turn by turn: the legal actions' text, the mover's
    observation text, a copy's legal actions a move ahead every few turns, the result."""
    seed, players, options = setup
    state = GAME.new_state(seed, players, dict(options))
    rng = SplitMix64(seed)
    shown = []
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        mover = GAME.current_player(state)
        shown += [legal.compact_text(), GAME.observation_text(state, mover)]
        if state.turn % copies_every == 0:
            twin = GAME.copy_state(state)
            GAME.apply_legal(twin, legal, len(legal) - 1)
            if not GAME.is_over(twin):
                shown.append(GAME.legal_actions(twin).compact_text())
            shown += [str(city.legal_triangles()) for city in twin.cities]
        GAME.apply_legal(state, legal, rng.below(len(legal)))
    shown.append(str(GAME.result(state).to_json()))
    return shown


# The fixture's patch holds for every example, as meant: it only counts and compares.
@settings(
    property_settings(12),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(setups())
def test_every_update_of_random_games_is_the_same_in_c_and_in_python(
    checked_updates: list[int], setup: Setup
) -> None:
    before = checked_updates[0]
    transcript(setup, copies_every=3)
    assert checked_updates[0] > before


def test_the_core_keeps_the_legal_triangles_of_a_full_scan_with_replayed_updates(
    checked_updates: list[int],
) -> None:
    """Copies put their updates off and replay them later (`direct` false), on raised
    tiles too: both ways agree (the fixture), and with the full scan."""
    for seed in range(3):
        state = GAME.new_state(seed, 3, {})
        rng = SplitMix64(seed)
        while not GAME.is_over(state):
            twin = GAME.copy_state(state)
            for _ in range(rng.below(4) + 1):
                if GAME.is_over(state):
                    break
                play_on_both(state, twin, rng)
            for city in state.cities + twin.cities:
                assert city.legal_triangles() == scan_legal_triangles(city.top, city.tile_at)


def test_random_games_show_the_same_with_the_core_and_without(
    core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    setups_ = [(11, 2, {}), (12, 4, {"houses": True, "gardens": True})]
    monkeypatch.setattr(native, "CORE", core)
    compiled = [transcript(setup, copies_every=2) for setup in setups_]
    monkeypatch.setattr(native, "CORE", None)
    assert compiled == [transcript(setup, copies_every=2) for setup in setups_]


AKROPOLIS_GOLDENS = [golden for golden in GOLDENS if golden.game == "akropolis"]


@pytest.mark.parametrize("golden", AKROPOLIS_GOLDENS[:2], ids=lambda g: g.id)
@pytest.mark.parametrize("compiled", [True, False], ids=["core", "pure-python"])
def test_the_goldens_play_byte_for_byte_with_the_core_and_without(
    golden: Golden, compiled: bool, core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(native, "CORE", core if compiled else None)
    assert golden_text(build_golden(golden)) == golden.path.read_text()


def test_the_core_refuses_what_is_not_a_city(core: ModuleType) -> None:
    city = City.starting()
    not_hexes = dict.fromkeys(city.top, "not a hex")
    with pytest.raises(TypeError, match="a city's hex"):
        core.update_legal(not_hexes, [], set(), None, {}, city.legal_triangles()[0], 1, True)
    with pytest.raises(TypeError):
        core.update_legal([], [], set(), None, {}, 0, 1, True)
    with pytest.raises(ValueError, match="non-negative"):
        core.update_legal({}, [], set(), None, {}, -1, 1, True)
    with pytest.raises(ValueError, match="one entry per triangle type"):
        core.setup((), (), (), (), 0, ())
