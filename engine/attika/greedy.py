"""The builtin greedy bot: every legal action gets a one-step value; the first of the
best is played.

Values, in rough "cards" units:
- a build: 10 for the building, minus 2 per card paid, +3 if it touches the player's own
  buildings, -3 if it founds a colony, +2 for a main building (it opens free builds),
  +6 for an amphora, +2 per step it brings the player's best colony nearer to linking
  two shrines, and 1000 if it wins;
- a draw: 5 while the board holds fewer than 4 buildings, else 1; +1 from the main stack;
- ending the turn: 1 per card it brings (3 when forgoing the whole turn) minus 1;
- keeping a drawn building: 2;
- an amphora: for one more action, 4 when a build worth more than 4 is waiting, else 0;
  for a card, 1;
- a payment: minus 10 per card paid, then keep the hand even (minus the spread);
- a map tile: nearer to the player's buildings is better.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.attika.actions import LegalActions, parse_action
from engine.attika.colonies import chain_of, group_joined
from engine.attika.components import (
    BUILDING_COUNT,
    GROUP_MEMBERS,
    GROUP_OF,
    IS_MAIN,
    LANDSCAPES,
)
from engine.attika.costs import fewest_cards
from engine.attika.fast.map_rules import build_cost
from engine.attika.observation import state_from_observation
from engine.attika.state import AttikaState
from engine.core import JSON
from engine.hexgrid import NEIGHBOUR_STEPS, decode, distance
from engine.players import Player

WIN = 1000.0


class ShrinePlanner:
    """How far the player's colonies are from linking two shrines, by hex distance."""

    def __init__(self, state: AttikaState, player: int) -> None:
        self.shrines = [decode(cell) for cell in state.shrines]
        self.gaps: dict[tuple[int, tuple[int, int]], int] = {}
        cells = list(state.seats[player].placed.values())
        self.colony_of: dict[int, int] = {}
        self.reach: list[list[int]] = []
        for cell in cells:
            if cell in self.colony_of:
                continue
            chain = chain_of(cells, cell)
            index = len(self.reach)
            for member in chain:
                self.colony_of[member] = index
            self.reach.append([min(self.gap(member, s) for member in chain) for s in self.shrines])
        self.best = min((self.need(r) for r in self.reach), default=self.need(None))

    def gap(self, cell: int, shrine: tuple[int, int]) -> int:
        """Buildings still missing between the cell and the shrine."""
        key = (cell, shrine)
        if key not in self.gaps:
            self.gaps[key] = distance(decode(cell), shrine) - 1
        return self.gaps[key]

    def need(self, reach: list[int] | None) -> int:
        if reach is None:
            return 2 * max(1, len(self.shrines)) * 8
        two = sorted(reach)[:2]
        return sum(two)

    def need_after(self, cell: int) -> int:
        joined = {self.colony_of[cell + s] for s in NEIGHBOUR_STEPS if cell + s in self.colony_of}
        reach = [self.gap(cell, s) for s in self.shrines]
        for index in joined:
            reach = [min(a, b) for a, b in zip(reach, self.reach[index], strict=True)]
        return min(self.best, self.need(reach))


def build_value(
    state: AttikaState, player: int, building: int, cell: int, planner: ShrinePlanner
) -> float:
    seat = state.seats[player]
    cost = build_cost(state, player, building, cell)
    value = 10.0 - 2.0 * fewest_cards(seat.hand, cost)
    touching = bool(state.caches.index.near[player].get(cell))
    value += 3.0 if touching else (-3.0 if seat.placed else 0.0)
    if IS_MAIN[building]:
        value += 2.0
    if len(seat.placed) + 1 == BUILDING_COUNT:
        return WIN
    need = planner.need_after(cell)
    if need == 0 and len(set(planner.shrines)) >= 2 and _links_two(state, player, cell):
        return WIN
    value += 2.0 * (planner.best - need)
    group = GROUP_OF[building]
    missing = [b for b in GROUP_MEMBERS[group] if b not in seat.placed and b != building]
    if group not in seat.amphora_groups and not missing:
        seat.placed[building] = cell
        joined = group_joined(state, player, group)
        del seat.placed[building]
        if joined:
            value += 6.0
    return value


def _links_two(state: AttikaState, player: int, cell: int) -> bool:
    cells = [*state.seats[player].placed.values(), cell]
    chain = chain_of(cells, cell)
    touched = {c + s for c in chain for s in NEIGHBOUR_STEPS} & set(state.shrines)
    return len(touched) >= 2


class GreedyBot(Player):
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # the greedy bot draws nothing at random; kept for a uniform interface

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> JSON:
        state = state_from_observation(observation)
        me = int(observation["player"])
        values = action_values(state, me, legal_actions)
        return legal_actions[values.index(max(values))]


def move_values(state: AttikaState, legal_actions: Sequence[JSON]) -> list[float]:
    """The greedy bot's value of each legal action of the player to move (its choice the
    first of the best): the search bots' guide."""
    return action_values(state, state.current, legal_actions)


def standing(state: AttikaState) -> list[float]:
    """Every seat's progress towards a win, in buildings: the buildings on the map, or
    more when two linked shrines are nearer than the last building (30 less the buildings
    still missing between its colonies and two shrines, as `ShrinePlanner` counts them).
    The search bots judge a playout cut short by it: the score (the buildings on the
    map) does not see the shrines."""
    return [
        float(max(len(seat.placed), BUILDING_COUNT - ShrinePlanner(state, player).best))
        for player, seat in enumerate(state.seats)
    ]


def action_values(state: AttikaState, me: int, legal_actions: Sequence[JSON]) -> list[float]:
    """The value of each legal action, in order."""
    planner = ShrinePlanner(state, me)
    others: Sequence[dict[str, Any]]
    builds: Sequence[tuple[int, Sequence[int]]]
    if isinstance(legal_actions, LegalActions):
        others, builds = legal_actions.others, legal_actions.builds
    else:
        others, builds = _split(legal_actions)
    build_values = [
        build_value(state, me, building, cell, planner)
        for building, cells in builds
        for cell in cells
    ]
    best_build = max(build_values, default=0.0)
    own = [decode(cell) for cell in state.seats[me].placed.values()]
    nearest: dict[tuple[int, int], int] = {}
    values = [other_value(state, me, action, best_build, own, nearest) for action in others]
    return values + build_values


def _split(
    legal_actions: Sequence[JSON],
) -> tuple[list[dict[str, Any]], list[tuple[int, list[int]]]]:
    """The non-build actions, and the builds as (building, cells) in order."""
    others: list[dict[str, Any]] = []
    builds: list[tuple[int, list[int]]] = []
    for action in legal_actions:
        parsed = parse_action(action)
        if parsed[0] != "build":
            others.append(action)
        elif builds and builds[-1][0] == parsed[1]:
            builds[-1][1].append(parsed[2])
        else:
            builds.append((parsed[1], [parsed[2]]))
    return others, builds


def other_value(
    state: AttikaState,
    me: int,
    action: dict[str, Any],
    best_build: float,
    own: list[tuple[int, int]],
    nearest: dict[tuple[int, int], int],
) -> float:
    """The value of a non-build action; `own` is the player's buildings' (q, r), and
    `nearest` remembers each tile centre's distance to the nearest of them."""
    seat = state.seats[me]
    kind = action["type"]
    if kind == "draw":
        return (5.0 if len(seat.board) < 4 else 1.0) + (1.0 if action["stack"] == 0 else 0.0)
    if kind == "end_turn":
        return float(state.actions_left if state.acted else 3) - 1.0
    if kind == "keep":
        return 2.0
    if kind == "amphora":
        if action["use"] == "card":
            return 1.0
        return 4.0 if best_build > 4.0 else 0.0
    if kind == "pay":
        paid = [int(action["cards"][name]) for name in LANDSCAPES]
        left = [held - p for held, p in zip(seat.hand, paid, strict=True)]
        return -10.0 * sum(paid) - float(max(left) - min(left))
    if kind == "extend":
        centre = (int(action["q"]), int(action["r"]))
        if centre not in nearest:
            nearest[centre] = min((distance(centre, cell) for cell in own), default=0)
        return -float(nearest[centre])
    return 0.0
