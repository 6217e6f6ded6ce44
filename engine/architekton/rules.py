"""Architekton as an Agon game: setup, turns, scoring during play, the end and the result.

The rules are those of the project's rules file for Architekton (seed game 003); each
function names the rule it carries out. Decisions the rules leave open are documented
in docs/bot-protocol.md and marked "Our decision" here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.architekton.actions import LegalActions, parse_action
from engine.architekton.board import (
    kept_houses,
    largest_group,
)
from engine.architekton.components import (
    BUILDINGS,
    DISPLAY_PER_KIND,
    HOUSES_PER_PLAYER,
    LANDSCAPE_TILES,
    RESERVE_PER_PILE,
    STARTING_POINTS,
    TERRAINS,
    rotated_edges,
)
from engine.architekton.greedy import GreedyBot
from engine.architekton.render import render_state
from engine.architekton.state import (
    OVER,
    ArchitektonState,
    board_to_json,
    state_from_json,
    state_from_observation,
    state_to_json,
)
from engine.architekton.turns import (
    continue_turn,
    decision_options,
    end_turn,
    legal_placements,
    place_building,
    place_landscape,
    resolve_decision,
)
from engine.core import (
    JSON,
    IllegalAction,
    InvalidOptions,
    MatchResult,
    OptionSpec,
    competition_ranks,
    normalize_options,
)
from engine.rng import SplitMix64
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
        if not isinstance(players, int) or isinstance(players, bool) or players != 2:
            raise InvalidOptions(f"Architekton is for exactly 2 players, not {players!r}")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise InvalidOptions(f"the seed must be an integer in [0, 2**64), not {seed!r}")
        normalized = normalize_options(self.options, players, options)
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
        """The player who owes the first pending decision, else the player whose turn it
        is (a surrounded building's owner may be asked during the other's turn)."""
        if state.pending:
            return state.pending[0].player
        return state.turn_player

    def is_over(self, state: ArchitektonState) -> bool:
        return state.stage == OVER

    def turn_number(self, state: ArchitektonState) -> int:
        return state.turn

    # --- legal actions ---------------------------------------------------------------

    def legal_actions(self, state: ArchitektonState) -> LegalActions:
        if self.is_over(state):
            return LegalActions(())
        if state.pending:
            return LegalActions(decision_options(state, state.pending[0]))
        placements = legal_placements(state)
        return LegalActions(placements if placements else [("pass",)])

    def apply(self, state: ArchitektonState, action: JSON) -> None:
        if self.is_over(state):
            raise IllegalAction("the game is over")
        raw = parse_action(action)
        if state.pending:
            resolve_decision(state, state.pending[0], raw)
        elif raw[0] == "building":
            place_building(state, raw)
        elif raw[0] == "landscape":
            place_landscape(state, raw)
        elif raw[0] == "pass":
            if legal_placements(state):
                raise IllegalAction("a player may pass only when no tile can be placed")
            end_turn(state)
        else:
            raise IllegalAction(f"{action} answers no pending decision")
        state.turn += 1
        continue_turn(state)

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
        unseen_buildings = sorted(state.building_pile + state.reserve_buildings)
        unseen_landscapes = state.landscape_pile + state.reserve_landscapes
        return {
            "game": self.id,
            "player": player,
            "players": state.players,
            "turn": state.turn,
            "current_player": self.current_player(state),
            "turn_player": state.turn_player,
            "options": dict(state.options),
            "stage": state.stage,
            "turns_taken": list(state.turns_taken),
            "placed_this_turn": state.placed_this_turn,
            "idle_turns": state.idle_turns,
            "points": list(state.points),
            "houses_in_supply": list(state.supply),
            "houses_removed": list(state.removed),
            "lost_early": state.loser,
            "display": {
                "buildings": [
                    {"tile": t, "edges": [TERRAINS[e] for e in rotated_edges(t, 0)]}
                    for t in state.display_buildings
                ],
                "landscapes": [TERRAINS[t] for t in state.display_landscapes],
            },
            "piles": {
                "buildings": len(state.building_pile),
                "landscapes": len(state.landscape_pile),
            },
            "reserve": {
                "buildings": len(state.reserve_buildings),
                "landscapes": len(state.reserve_landscapes),
            },
            "unseen_buildings": unseen_buildings,
            "unseen_landscapes": {
                name: unseen_landscapes.count(t) for t, name in enumerate(TERRAINS)
            },
            "board": board_to_json(state),
            "pending": [decision.to_json() for decision in state.pending],
        }

    def state_to_json(self, state: ArchitektonState) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: JSON) -> ArchitektonState:
        return state_from_json(data)

    def copy_state(self, state: ArchitektonState) -> ArchitektonState:
        return state.copy()

    def render_text(self, state: ArchitektonState) -> str:
        return render_state(self, state)

    def greedy_bot(self, seed: int) -> GreedyBot:
        return GreedyBot(seed)

    def state_from_observation(self, observation: JSON) -> ArchitektonState:
        """A state for lookahead built from what a player sees. The piles and the reserve
        are face down, so they hold the unseen tiles in a fixed order: a guess."""
        return state_from_observation(observation)


ARCHITEKTON = Architekton()
