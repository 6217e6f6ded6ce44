"""The builtin greedy bot for Architekton: a one-step heuristic, ties to the first action.

A placement is valued for what it does at once and what it sets up (a point won now is
worth 6):
- a building: +6 if it is surrounded at once (+1 point), +1 per landscape it touches
  (each is a matching edge for good), +2 if it is touched by 3 or more landscapes (its
  house will be kept at the end), +3 per house its group of diagonal houses gains;
- a landscape, for every building with a house it touches (counted for its owner:
  plus for the bot, minus for the opponent): when it surrounds the building, 6 x the
  points won or lost; otherwise +1 for a matching edge and -3 for a mismatch (a future
  loss); +2 when the building reaches 3 landscapes.
Decisions: a house to move is taken where it leaves the largest group (then from the
building with the fewest landscapes, then the first); a house is removed to reduce a loss
when the player could not pay otherwise or when it is outside the player's largest group.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.architekton.board import (
    house_groups,
    houses_of,
    landscape_sides,
    landscapes_around,
    largest_group,
    mismatches,
)
from engine.architekton.components import TERRAIN_OF_NAME, edge
from engine.architekton.observation import state_from_observation
from engine.architekton.state import MOVE_HOUSE, ArchitektonState
from engine.architekton.turns import current_player
from engine.core import JSON
from engine.players import Player
from engine.squaregrid import NEIGHBOUR_STEPS, encode, opposite

POINT = 6
"""What a point won or lost at once is worth to the heuristic."""


def building_value(state: ArchitektonState, player: int, action: dict[str, Any]) -> int:
    code = encode(action["x"], action["y"])
    touching = len(landscape_sides(state, code))
    value = touching + (POINT if touching == 4 else 0) + (2 if touching >= 3 else 0)
    if state.supply[player] > 0:
        mine = houses_of(state, player)
        value += 3 * (largest_group([*mine, code]) - largest_group(mine))
    return value


def landscape_value(state: ArchitektonState, player: int, action: dict[str, Any]) -> int:
    code = encode(action["x"], action["y"])
    terrain = TERRAIN_OF_NAME[action["landscape"]]
    value = 0
    for direction, step in enumerate(NEIGHBOUR_STEPS):
        building = code + step
        owner = state.houses.get(building)
        if owner is None:
            continue
        sign = 1 if owner == player else -1
        tile_id, rotation = state.buildings[building]
        matches = edge(tile_id, rotation, opposite(direction)) == terrain
        around = landscapes_around(state, building) + 1
        if around == 4:
            wrong = mismatches(state, building) + (0 if matches else 1)
            value += sign * POINT * (1 if wrong == 0 else -wrong)
        else:
            value += sign * (1 if matches else -3)
        if around == 3:
            value += sign * 2
    return value


def move_choice(state: ArchitektonState, player: int, target: int, legal: Sequence[Any]) -> int:
    mine = houses_of(state, player)
    best, best_key = 0, None
    for index, action in enumerate(legal):
        source = encode(*action["house"])
        after = [code for code in mine if code != source] + [target]
        key = (largest_group(after), -landscapes_around(state, source))
        if best_key is None or key > best_key:
            best, best_key = index, key
    return best


def removes_house(state: ArchitektonState, player: int, cell: int, loss: int) -> bool:
    if state.points[player] < loss:
        return True
    groups = house_groups(houses_of(state, player))
    largest = max(groups, key=len, default=set())
    return cell not in largest


def move_values(state: ArchitektonState, legal_actions: Sequence[JSON]) -> list[float]:
    """The greedy bot's value of each legal action of the player to move (its choice the
    first of the best): the search bots' guide."""
    player = current_player(state)
    if state.pending:
        decision = state.pending[0]
        if decision.kind == MOVE_HOUSE:
            chosen = move_choice(state, player, decision.cell, legal_actions)
            return [float(index == chosen) for index in range(len(legal_actions))]
        remove = removes_house(state, player, decision.cell, decision.loss)
        return [float(action.get("remove_house") == remove) for action in legal_actions]
    return [
        float(
            building_value(state, player, action)
            if "building" in action
            else landscape_value(state, player, action)
        )
        for action in legal_actions
    ]


class GreedyBot(Player):
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # the greedy bot draws nothing at random; kept for a uniform interface

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> JSON:
        if len(legal_actions) == 1:
            return legal_actions[0]
        state = state_from_observation(observation)
        player = observation["player"]
        if state.pending:
            decision = state.pending[0]
            if decision.kind == MOVE_HOUSE:
                return legal_actions[move_choice(state, player, decision.cell, legal_actions)]
            remove = removes_house(state, player, decision.cell, decision.loss)
            return {"remove_house": remove}
        best, best_value = 0, None
        for index, action in enumerate(legal_actions):
            if "building" in action:
                value = building_value(state, player, action)
            else:
                value = landscape_value(state, player, action)
            if best_value is None or value > best_value:
                best, best_value = index, value
        return legal_actions[best]
