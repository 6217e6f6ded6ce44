"""The engine's own Akropolis turns (`rules.apply_action`, `legal_actions`) played on the
C prototype's cities: a state whose cities are `akropolis_core.CCity`, which answers the
calls a turn makes on a `City` (`can_cover`, `copy`, `place`, `legal_triangles`).

Scores here are the rules' without variants (`CCity.points`), so only option-free games.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from engine.akropolis.spec import AKROPOLIS
from engine.akropolis.state import AkropolisState
from engine.rng import SplitMix64


def c_state(core: ModuleType, seed: int, players: int) -> AkropolisState:
    """The engine's new state (same tiles, same order) with C cities."""
    state = AKROPOLIS.new_state(seed, players, {})
    state.cities = [core.starting() for _ in range(players)]
    return state


def c_scores(state: AkropolisState) -> list[int]:
    """Every seat's score now (as `Akropolis.scores` for an option-free game)."""
    cities: list[Any] = state.cities
    return [city.points() + stones for city, stones in zip(cities, state.stones, strict=True)]


def random_playout(core: ModuleType, players: int, seed: int) -> int:
    """A random game as `cpu_table.random_playout` plays it, on C cities; its turns."""
    state = c_state(core, seed, players)
    rng = SplitMix64(seed)
    turns = 0
    while not AKROPOLIS.is_over(state):
        legal = AKROPOLIS.legal_actions(state)
        AKROPOLIS.apply(state, legal[rng.below(len(legal))])
        turns += 1
    c_scores(state)
    return turns
