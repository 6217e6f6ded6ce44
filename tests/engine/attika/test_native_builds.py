"""Attika's compiled core (`engine.attika.native`) against the pure-Python engine.

Where each building can be built (`fast.builds.legal_builds`) is worked out both ways on
every decision of random games, for every player and every building, and on adversarial
hands (empty, one card short, enough for anything, lopsided, a map with no free cell):
the same options, the same kinds of sequences. Whole games and the goldens must play the
same byte for byte with the core and without. Its loader falls back to pure Python,
saying so in one line, wherever the core cannot be used. Where the core is not built
these tests skip, or fail where AGON_TEST_REQUIRE asks for it (`make test`).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from engine.attika import AttikaState, native
from engine.attika.actions import BuildOptions
from engine.attika.components import BUILDING_COUNT, COST, IS_MAIN, IS_ROAD, UPSTREAM, WORST
from engine.attika.fast.builds import legal_builds_in_python
from engine.bots import builtin_bot
from engine.hexgrid import NEIGHBOUR_STEPS
from engine.rng import SplitMix64
from tests.engine.attika.support import GAME, random_game
from tests.engine.attika.test_properties import Setup, setups
from tests.engine.goldens.playthroughs import GOLDENS, Golden, build_golden, golden_text
from tests.engine.support import property_settings
from tests.required import missing

ALL_BUILDINGS = list(range(BUILDING_COUNT))


@pytest.fixture
def core(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The compiled core, set up, whatever AGON_PURE_PYTHON says."""
    monkeypatch.delenv(native.PURE_PYTHON_VARIABLE, raising=False)
    module = native.load_core()
    if module is None:
        missing("compiled-core", "Attika's compiled core is not built here (`make venv`)")
    return module


def kinds(options: BuildOptions) -> list[type]:
    return [type(cells) for _, cells in options]


def assert_same_builds(core: ModuleType, state: AttikaState, player: int, asked: list[int]) -> None:
    compiled = core.legal_builds(state, player, asked)
    pure = legal_builds_in_python(state, player, asked)
    assert compiled == pure
    assert kinds(compiled) == kinds(pure)  # all the free cells as a tuple, else a list


def assert_same_for_everyone(core: ModuleType, state: AttikaState) -> None:
    for player in range(state.players):
        assert_same_builds(core, state, player, state.seats[player].board)
        assert_same_builds(core, state, player, ALL_BUILDINGS)
        assert_same_builds(core, state, player, ALL_BUILDINGS[::-1])


@settings(
    property_settings(8),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(setups)
def test_every_decision_of_random_games_builds_the_same_in_c_and_in_python(
    core: ModuleType, setup: Setup
) -> None:
    for state, _ in random_game(*setup):
        assert_same_for_everyone(core, state)


@settings(
    property_settings(4),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(setups)
def test_adversarial_hands_build_the_same_in_c_and_in_python(
    core: ModuleType, setup: Setup
) -> None:
    seed, _ = setup
    rng = SplitMix64(seed)
    for state, chosen in random_game(*setup):
        if chosen is not None and state.turn % 15 != 7:
            continue
        for hand in ([0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 9], [3, 3, 0, 0], [20, 20, 20, 20]):
            twin = GAME.copy_state(state)
            for seat in twin.seats:
                seat.hand = [n + rng.below(2) * (n > 0) for n in hand]
            twin.rebuild_caches()
            assert_same_for_everyone(core, twin)


def test_a_map_without_a_free_cell_builds_the_same_in_c_and_in_python(core: ModuleType) -> None:
    """Not reached in play: every building everywhere affordable gets the empty tuple,
    the others nothing, both ways."""
    state = GAME.new_state(5, 3, {})
    index = state.caches.index
    index.discount.clear()
    index.by_discount.clear()
    index.free_sorted.clear()
    for touching in index.touching:
        touching.clear()
    index.groups_cache = None  # what Python kept of the free cells
    for hand in ([0, 0, 0, 0], [2, 2, 2, 2], [30, 30, 30, 30]):
        state.seats[0].hand = hand
        assert_same_builds(core, state, 0, ALL_BUILDINGS)


def test_the_core_refuses_what_is_not_a_position(core: ModuleType) -> None:
    state = GAME.new_state(1, 2, {})
    with pytest.raises(AttributeError):
        core.legal_builds(object(), 0, [0])
    with pytest.raises(ValueError, match="player"):
        core.legal_builds(state, -1, [0])
    with pytest.raises(ValueError, match="no entry for player 2"):
        core.legal_builds(state, 2, [0])
    with pytest.raises(ValueError, match="a building"):
        core.legal_builds(state, 0, [BUILDING_COUNT])
    with pytest.raises(TypeError, match="a building"):
        core.legal_builds(state, 0, [True])
    with pytest.raises(TypeError):
        core.legal_builds(state, 0, 3)
    twin = GAME.copy_state(state)
    twin.seats[0].hand = [1, 2, 3]
    with pytest.raises(ValueError, match="one count per landscape"):
        core.legal_builds(twin, 0, [0])
    twin.seats[0].hand = [0, -1, 0, 0]
    with pytest.raises(ValueError, match="a hand"):
        core.legal_builds(twin, 0, [0])
    twin = GAME.copy_state(state)
    twin.caches.index.free_sorted.reverse()
    with pytest.raises(ValueError, match="not sorted"):
        core.legal_builds(twin, 0, [0])
    twin = GAME.copy_state(state)
    twin.caches.index.free_sorted.append(10**9)
    with pytest.raises(ValueError, match="without a discount"):
        core.legal_builds(twin, 0, [0])
    twin = GAME.copy_state(state)
    lists: dict[int, Any] = {cell: [0] * 5 for cell in twin.caches.index.discount}
    twin.caches.index.discount = lists
    with pytest.raises(TypeError, match="a discount"):
        core.legal_builds(twin, 0, [0])
    twin = GAME.copy_state(state)
    twin.caches.index.touching[0] = list(twin.caches.index.touching[0])  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="sets expected"):
        core.legal_builds(twin, 0, [0])
    with pytest.raises(ValueError, match="wrong sizes"):
        core.setup(COST, WORST[:-1], IS_MAIN, IS_ROAD, UPSTREAM, 5, NEIGHBOUR_STEPS)
    with pytest.raises(TypeError, match="a flag"):
        core.setup(COST, WORST, (*IS_ROAD[:-1], 1), IS_ROAD, UPSTREAM, 5, NEIGHBOUR_STEPS)
    # a refused setup leaves the core as it was
    assert core.legal_builds(state, 0, ALL_BUILDINGS) == legal_builds_in_python(
        state, 0, ALL_BUILDINGS
    )


# --- whole games -----------------------------------------------------------------------


def transcript(seed: int, players: int) -> list[str]:
    """What a game of greedy and random bots shows, turn by turn: the legal actions'
    text, the action, and every few turns a copy's legal actions a move ahead."""
    state = GAME.new_state(seed, players, {})
    bots = [
        builtin_bot("greedy" if seat % 2 else "random", GAME.id, seed, seat)
        for seat in range(players)
    ]
    shown = []
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        seat = GAME.current_player(state)
        action = bots[seat].act(GAME.observation(state, seat), legal)
        shown += [legal.compact_text(), str(action)]
        if state.turn % 3 == 0:
            twin = GAME.copy_state(state)
            GAME.apply(twin, legal[len(legal) - 1])
            shown.append(GAME.legal_actions(twin).compact_text())
        GAME.apply(state, action)
    shown.append(str(GAME.result(state).to_json()))
    return shown


def test_games_play_the_same_with_the_core_and_without(
    core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    setups_ = [(31, 2), (32, 3), (33, 4)]
    monkeypatch.setattr(native, "CORE", core)
    compiled = [transcript(*setup) for setup in setups_]
    monkeypatch.setattr(native, "CORE", None)
    assert compiled == [transcript(*setup) for setup in setups_]


ATTIKA_GOLDENS = [golden for golden in GOLDENS if golden.game == "attika"]


@pytest.mark.parametrize("golden", ATTIKA_GOLDENS, ids=lambda g: g.id)
@pytest.mark.parametrize("compiled", [True, False], ids=["core", "pure-python"])
def test_the_goldens_play_byte_for_byte_with_the_core_and_without(
    golden: Golden, compiled: bool, core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(native, "CORE", core if compiled else None)
    assert golden_text(build_golden(golden)) == golden.path.read_text()
