"""Chains of a player's buildings: colonies, the shrine connection and joined groups.

Two buildings are connected when their hexes are adjacent; a shrine between them does
not connect them (it is not a building). A colony is a chain of a player's buildings.
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


def colonies(state: AttikaState, player: int) -> list[set[int]]:
    """The player's colonies: the chains of their buildings' cells."""
    cells = set(state.seats[player].placed.values())
    found: list[set[int]] = []
    for cell in sorted(cells):
        if not any(cell in colony for colony in found):
            found.append(chain_of(cells, cell))
    return found


def shrines_linked(state: AttikaState, player: int, cell: int) -> int:
    """How many shrines touch the chain of the player's buildings through `cell` (two
    win the game)."""
    chain = chain_of(state.seats[player].placed.values(), cell)
    return len({c + step for c in chain for step in NEIGHBOUR_STEPS} & set(state.shrines))


def group_joined(state: AttikaState, player: int, group: int) -> bool:
    """Every building of the group is on the map and they form one chain."""
    placed = state.seats[player].placed
    members = GROUP_MEMBERS[group]
    if any(b not in placed for b in members):
        return False
    cells = [placed[b] for b in members]
    return len(chain_of(cells, cells[0])) == len(cells)
