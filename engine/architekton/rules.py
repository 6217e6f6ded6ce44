"""Architekton as an Agon game: setup, whose move, the end and the result.

The rules are those of docs/rules/architekton.md (seed game 003); each function names
the rule it carries out. Decisions the rules leave open are written, each under its own
name, in docs/rules/architekton-decisions.md and marked "Our decision" here. Read them in
the rules page's order:
- `components`: terrains, landscape and building tiles, houses, points;
- this module: setup (`new_state`) and the result at the end;
- `turns`: a turn (placing tiles, houses, scoring surrounded buildings, decisions owed),
  the legal actions, the end of play;
- `board`: where tiles may go, when a building is surrounded, groups of houses.
What the state holds is in `state`. The speed lives apart, in `fast` (each fast path
names the plain function it agrees with).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.architekton.board import kept_houses, largest_group
from engine.architekton.components import (
    BUILDINGS,
    DISPLAY_PER_KIND,
    HOUSES_PER_PLAYER,
    LANDSCAPE_TILES,
    RESERVE_PER_PILE,
    STARTING_POINTS,
)
from engine.architekton.fast.legal_text import LegalActionsText
from engine.architekton.fast.observation_text import observation_text
from engine.architekton.greedy import GreedyBot
from engine.architekton.observation import observation, state_from_observation
from engine.architekton.render import render_state
from engine.architekton.state import ArchitektonState
from engine.architekton.state_json import state_from_json, state_to_json
from engine.architekton.turns import apply_action, current_player, is_over, legal_actions
from engine.core import JSON, MatchResult, OptionSpec, competition_ranks
from engine.rng import SplitMix64
from engine.setup_checks import checked_options
from engine.squaregrid import encode

STARTING_CELLS = (encode(0, 0), encode(1, 1))
"""The two starting landscapes, touching at a corner."""


class Architekton:
    id = "architekton"
    name = "Architekton"
    rules_version = 1
    player_counts: tuple[int, ...] = (2,)
    options: tuple[OptionSpec, ...] = ()

    # --- setup -----------------------------------------------------------------------

    def new_state(self, seed: int, players: int, options: Mapping[str, JSON]) -> ArchitektonState:
        normalized = checked_options(self, seed, players, options)
        rng = SplitMix64(seed)
        buildings = [tile.id for tile in BUILDINGS]
        landscapes = list(LANDSCAPE_TILES)
        rng.shuffle(buildings)
        rng.shuffle(landscapes)
        reserve_buildings, buildings = buildings[:RESERVE_PER_PILE], buildings[RESERVE_PER_PILE:]
        reserve_landscapes, landscapes = (
            landscapes[:RESERVE_PER_PILE],
            landscapes[RESERVE_PER_PILE:],
        )
        start = {cell: landscapes.pop(0) for cell in STARTING_CELLS}
        display_buildings = [buildings.pop(0) for _ in range(DISPLAY_PER_KIND)]
        display_landscapes = [landscapes.pop(0) for _ in range(DISPLAY_PER_KIND)]
        return ArchitektonState(
            seed=seed,
            players=players,
            options=normalized,
            landscapes=start,
            buildings={},
            houses={},
            building_pile=buildings,
            landscape_pile=landscapes,
            reserve_buildings=reserve_buildings,
            reserve_landscapes=reserve_landscapes,
            display_buildings=display_buildings,
            display_landscapes=display_landscapes,
            points=[STARTING_POINTS] * players,
            supply=[HOUSES_PER_PLAYER] * players,
            removed=[0] * players,
        )

    # --- whose move ------------------------------------------------------------------

    def current_player(self, state: ArchitektonState) -> int:
        return current_player(state)

    def is_over(self, state: ArchitektonState) -> bool:
        return is_over(state)

    def turn_number(self, state: ArchitektonState) -> int:
        return state.turn

    # --- legal actions ---------------------------------------------------------------

    def legal_actions(self, state: ArchitektonState) -> LegalActionsText:
        return legal_actions(state)

    def apply(self, state: ArchitektonState, action: JSON) -> None:
        apply_action(state, action)

    # --- the end ---------------------------------------------------------------------

    def result(self, state: ArchitektonState) -> MatchResult:
        if state.loser is not None:
            keys = [(0 if p == state.loser else 1, state.points[p]) for p in range(state.players)]
            details: list[JSON] = [
                {"points": state.points[p], "lost_early": p == state.loser}
                for p in range(state.players)
            ]
            return MatchResult(
                scores=list(state.points), ranks=competition_ranks(keys), details=details
            )
        kept = kept_houses(state)
        scores, keys, details = [], [], []
        for player in range(state.players):
            houses = [code for code, owner in kept.items() if owner == player]
            group = largest_group(houses)
            total = state.points[player] + group
            scores.append(total)
            keys.append((total, len(houses)))
            details.append(
                {
                    "points": state.points[player],
                    "largest_group": group,
                    "houses_kept": len(houses),
                    "lost_early": False,
                }
            )
        return MatchResult(scores=scores, ranks=competition_ranks(keys), details=details)

    # --- what players see ------------------------------------------------------------

    def observation(self, state: ArchitektonState, player: int) -> dict[str, Any]:
        return observation(state, player)

    def observation_text(self, state: ArchitektonState, player: int) -> str:
        """`observation(state, player)` as JSON text, written from parts kept between
        turns (`engine.match.observation_for`)."""
        return observation_text(state, player)

    def state_to_json(self, state: ArchitektonState) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: JSON) -> ArchitektonState:
        return state_from_json(data)

    def copy_state(self, state: ArchitektonState) -> ArchitektonState:
        return state.copy()

    def render_text(self, state: ArchitektonState) -> str:
        return render_state(state)

    def greedy_bot(self, seed: int) -> GreedyBot:
        return GreedyBot(seed)

    def state_from_observation(self, observation: JSON) -> ArchitektonState:
        """A state for lookahead built from what a player sees. The piles and the reserve
        are face down, so they hold the unseen tiles in a fixed order: a guess."""
        return state_from_observation(observation)


ARCHITEKTON = Architekton()
