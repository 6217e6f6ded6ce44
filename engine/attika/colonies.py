"""Chains of a player's buildings: colonies, the shrine connection and joined groups.

Two buildings are connected when their hexes are adjacent; a shrine between them does
not connect them (it is not a building).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.attika.components import GROUP_MEMBERS
from engine.attika.state import AttikaState
from engine.hexgrid import NEIGHBOUR_STEPS


def chain_of(cells: Iterable[int], start: int) -> set[int]:
    """The cells connected to `start` through adjacent cells among `cells`."""
    among = set(cells)
    chain = {start}
    frontier = [start]
    while frontier:
        cell = frontier.pop()
        for step in NEIGHBOUR_STEPS:
            other = cell + step
            if other in among and other not in chain:
                chain.add(other)
                frontier.append(other)
    return chain


def shrines_touched(state: AttikaState, player: int, colony: int) -> int:
    """How many shrines touch the colony with this label (see `index.MapIndex`); 0 when
    the player's buildings touch fewer than two shrines in all. (Asked at every build:
    loops, not generators.)"""
    near_shrines = state.index.near[player].keys() & state.shrines
    if len(near_shrines) < 2:
        return 0
    colony_of = state.index.colony_of[player]
    touched = 0
    for shrine in near_shrines:
        for step in NEIGHBOUR_STEPS:
            if colony_of.get(shrine + step) == colony:
                touched += 1
                break
    return touched


def shrines_linked(state: AttikaState, player: int, cell: int) -> int:
    """How many shrines touch the chain of the player's buildings through `cell`, from
    the chain itself (the tests' oracle for `shrines_touched`)."""
    chain = chain_of(state.seats[player].placed.values(), cell)
    shrines = state.index.shrine_cells
    return len({c + step for c in chain for step in NEIGHBOUR_STEPS} & shrines)


def group_joined(state: AttikaState, player: int, group: int) -> bool:
    """Every building of the group is on the map and they form one chain."""
    placed = state.seats[player].placed
    members = GROUP_MEMBERS[group]
    if any(b not in placed for b in members):
        return False
    cells = [placed[b] for b in members]
    return len(chain_of(cells, cells[0])) == len(cells)
