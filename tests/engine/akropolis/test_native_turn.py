"""Akropolis' compiled core, second stage: the running score, the city's copy and
placement, and the turn around them (`engine.akropolis.native`), against pure Python.

Two equal games are played side by side, the same moves on both, one with the core and
one without: after every turn, and after every lookahead a turn tries on a copy, the
two states must hold the same of everything the engine keeps (the cities' cells and
tiles, the legal triangles and their texts, the updates put off, the running score's
every slot), and score the same. Where the core is not built these tests skip, or fail
where AGON_TEST_REQUIRE asks for it (`make test`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from engine.akropolis import native
from engine.akropolis.city import City
from engine.akropolis.fast.city_cache import CityCache
from engine.akropolis.fast.running_score import RunningScore
from engine.akropolis.state import AkropolisState
from engine.core import IllegalAction
from engine.rng import SplitMix64
from tests.engine.akropolis.test_properties import Setup, setups
from tests.engine.support import GAME, property_settings


def slots(thing: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """The slots of a kept object as plain values (a dict's order kept: its items; the
    legal triangles as a list and a set, which the core keeps as its `LegalTriangles`)."""
    shown: dict[str, Any] = {}
    for name in names:
        value = getattr(thing, name)
        if type(value) is dict:
            shown[name] = (type(value).__name__, list(value.items()))
        elif name == "legal" and value is not None:
            shown[name] = list(value)
        elif name == "legal_set":
            shown[name] = set(value)
        else:
            shown[name] = value
    return shown


def snapshot(state: AkropolisState) -> dict[str, Any]:
    """Everything the state and its cities keep, read without changing any of it."""
    cities = []
    for city in state.cities:
        kept = city.kept
        score = kept.score
        cities.append(
            {
                **slots(city, ("top", "tile_at", "tiles")),
                **slots(kept, tuple(n for n in CityCache.__slots__ if n != "score")),
                "score": None if score is None else slots(score, RunningScore.__slots__),
            }
        )
    fields = {name: value for name, value in vars(state).items() if name != "cities"}
    return {**fields, "cities": cities}


class Sides:
    """The same game with the core (`compiled`) and without (`pure`): each call runs
    on both, the core switched on and off around each."""

    def __init__(self, core: ModuleType, setup: Setup) -> None:
        seed, players, options = setup
        self.core = core
        self.compiled = GAME.new_state(seed, players, dict(options))
        self.pure = GAME.new_state(seed, players, dict(options))

    def both(self, work: Callable[[AkropolisState], Any]) -> Any:
        native.CORE = self.core
        try:
            compiled = work(self.compiled)
        finally:
            native.CORE = None
        pure = work(self.pure)
        assert compiled == pure
        assert snapshot(self.compiled) == snapshot(self.pure), f"turn {self.pure.turn}"
        return pure


def try_ahead(state: AkropolisState, index: int, mover: int, seed: int) -> Any:
    """A lookahead's evaluation on a copy (and a second move on it, now and then): what
    it scores and keeps."""
    rng = SplitMix64(seed)
    twin = GAME.copy_state(state)
    GAME.apply_legal(twin, GAME.legal_actions(state), index)
    seen: list[Any] = [GAME.score(twin, mover)]
    if not GAME.is_over(twin) and rng.below(2):
        ahead = GAME.legal_actions(twin)
        GAME.apply_legal(twin, ahead, rng.below(len(ahead)))
        seen += [GAME.scores(twin), str(GAME.legal_actions(twin).triangles)]
    return seen, snapshot(twin)


def play_index(state: AkropolisState, index: int) -> None:
    GAME.apply_legal(state, GAME.legal_actions(state), index)


def action_at(state: AkropolisState, index: int) -> Any:
    return GAME.legal_actions(state)[index]


def legal_size(state: AkropolisState) -> int:
    return len(GAME.legal_actions(state))


def legal_text(state: AkropolisState) -> str:
    return GAME.legal_actions(state).compact_text()


def every_score(state: AkropolisState) -> list[int]:
    return [GAME.score(state, seat) for seat in range(state.players)]


def result_json(state: AkropolisState) -> Any:
    return GAME.result(state).to_json()


def placements(state: AkropolisState) -> tuple[tuple[int, ...], int]:
    legal = GAME.legal_actions(state)
    return legal.triangles, len(legal.tiles)


def play_side_by_side(core: ModuleType, setup: Setup, checked_every: int) -> int:
    """A random game on both sides, lookaheads tried on copies each turn; the turns
    played."""
    sides = Sides(core, setup)
    rng = SplitMix64(setup[0] ^ 0x5EED)
    # Scored once at the start, as `Lookahead` does: every city keeps a running score.
    if rng.below(4):
        sides.both(GAME.scores)
    while not GAME.is_over(sides.pure):
        # The legal actions asked of both sides alike: asking updates what a city keeps.
        size = sides.both(legal_size)
        mover = GAME.current_player(sides.pure)
        if rng.below(3) == 0:
            sides.both(legal_text)
        for _ in range(rng.below(3)):
            sides.both(partial(try_ahead, index=rng.below(size), mover=mover, seed=rng.next_u64()))
        index = rng.below(size)
        if sides.pure.turn % checked_every == 0:
            action = sides.both(partial(action_at, index=index))
            sides.both(partial(GAME.apply, action=action))
        else:
            sides.both(partial(play_index, index=index))
        sides.both(every_score)
    sides.both(result_json)
    return sides.pure.turn


@settings(
    property_settings(25),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(setups())
def test_every_turn_and_lookahead_of_random_games_is_the_same_in_c_and_in_python(
    core: ModuleType, setup: Setup
) -> None:
    try:
        assert play_side_by_side(core, setup, checked_every=3) > 0
    finally:
        native.CORE = core


def test_raised_tiles_lakes_and_every_variant_keep_the_same_score(core: ModuleType) -> None:
    """Games that stack wherever they can (covered plazas, houses, markets) and play
    with every variant on (doubled gardens by lakes, barracks, temples, markets)."""
    options = {name: True for name in ("houses", "markets", "barracks", "temples", "gardens")}
    try:
        for seed, players in ((5, 2), (6, 3), (7, 4)):
            sides = Sides(core, (seed, players, options))
            sides.both(GAME.scores)
            rng = SplitMix64(seed)
            while not GAME.is_over(sides.pure):
                triangles, tiles = sides.both(placements)
                city = sides.pure.cities[GAME.current_player(sides.pure)]
                raised = [i for i, t in enumerate(triangles) if t >> 1 in city.top]
                at = raised[rng.below(len(raised))] if raised else rng.below(len(triangles))
                index = rng.below(tiles) * len(triangles) * 3 + at * 3
                sides.both(partial(play_index, index=index))
                sides.both(GAME.scores)
    finally:
        native.CORE = core


def test_the_core_refuses_what_is_not_a_city_or_a_score(core: ModuleType) -> None:
    city = City.starting()
    with pytest.raises(TypeError, match="a City expected"):
        core.copy_city(object())
    with pytest.raises(TypeError, match="a City expected"):
        core.place(city.kept, 0, (1, 2, 3), (1, 1, 1), 5)
    with pytest.raises(ValueError, match="hex code out of range"):
        core.place(city, 0, (1, 2, 3), (1, 99, 1), 5)
    with pytest.raises(TypeError, match="a RunningScore expected"):
        core.placed(city, city.top, 0, (1, 2, 3), (1, 1, 1), None, 1)
    with pytest.raises(TypeError, match="a RunningScore expected"):
        core.total(city, city.top)
    with pytest.raises(AttributeError):
        core.copy_city(City.__new__(City))
    with pytest.raises(IndexError, match="legal action index"):
        state = GAME.new_state(1, 2, {})
        core.apply_legal(state, GAME.legal_actions(state), 10**6)


def refusal(state: AkropolisState, action: Any) -> str:
    """What `apply` says of an action it refuses (nothing changed), or "applied"."""
    try:
        GAME.apply(state, action)
    except IllegalAction as error:
        return str(error)
    return "applied"


def refusal_on_a_copy(state: AkropolisState, action: Any) -> tuple[str, Any]:
    """`refusal` on a copy played a move ahead first (its city's legal updates put
    off), and what the copy keeps."""
    twin = GAME.copy_state(state)
    GAME.apply_legal(twin, GAME.legal_actions(twin), 0)
    if GAME.is_over(twin):
        return "over", snapshot(twin)
    return refusal(twin, action), snapshot(twin)


def test_checked_actions_the_core_does_not_take_are_refused_as_in_python(
    core: ModuleType,
) -> None:
    """The core applies only plain legal actions and leaves the rest, the state as it
    was, to the Python checks: the same refusals, word for word, and the same state."""
    try:
        sides = Sides(core, (21, 3, {}))
        rng = SplitMix64(21)
        while not GAME.is_over(sides.pure):
            action = sides.both(partial(action_at, index=rng.below(sides.both(legal_size))))
            q, r, tile = action["q"], action["r"], action["tile"]
            for bad in (
                {**action, "rotation": 6},
                {**action, "q": True},
                {**action, "tile": 99},
                {**action, "tile": -1},
                {**action, "q": 10**30},
                {**action, "q": q + 40, "r": r - 40},
                {**action, "extra": 1},
                {"tile": tile, "q": q, "r": r},
                [tile, q, r, 0],
            ):
                assert sides.both(partial(refusal, action=bad)) != "applied"
            # A copy's city puts its legal updates off: the core leaves its checks to
            # Python, which applies the action all the same.
            sides.both(partial(refusal_on_a_copy, action=action))
            sides.both(partial(GAME.apply, action=action))
        sides.both(partial(refusal, action=action))
    finally:
        native.CORE = core
