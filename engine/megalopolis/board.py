"""Where tiles may go on the Megalopolis table, what touches what, and controlled groups.

Two tiles are adjacent when they share a full edge (the four square-grid neighbours).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.megalopolis.components import PLAZA, POWER_STATION
from engine.megalopolis.state import MegalopolisState, Tile
from engine.squaregrid import NEIGHBOUR_STEPS, connected_groups, encode

CENTRE = encode(0, 0)


def adjacent_tiles(state: MegalopolisState, code: int) -> list[int]:
    """Cells of the placed tiles sharing an edge with `code`, in direction order N E S W."""
    board = state.board
    return [code + step for step in NEIGHBOUR_STEPS if code + step in board]


def open_spaces(state: MegalopolisState, excluding: int | None = None) -> set[int]:
    """Empty cells sharing an edge with a placed tile (other than the one at `excluding`,
    whose own cell does not count as empty either)."""
    board = state.board
    spaces = {code + step for code in board if code != excluding for step in NEIGHBOUR_STEPS}
    spaces.difference_update(board)
    return spaces


def placement_spaces(state: MegalopolisState) -> list[int]:
    """Where a tile may be played or placed, sorted: next to a placed tile, and (Plaza)
    next to a face-up Plaza while such a space exists. An empty table (never reached in
    practice) offers its centre."""
    if not state.board:
        return [CENTRE]
    board = state.board
    by_plaza = {
        code + step
        for code, tile in board.items()
        if tile.kind == PLAZA and tile.face_up
        for step in NEIGHBOUR_STEPS
        if code + step not in board
    }
    if by_plaza:
        return sorted(by_plaza)
    return sorted_open_spaces(state)


def sorted_open_spaces(state: MegalopolisState) -> list[int]:
    """`sorted(open_spaces(state))`, kept on the state with the occupied cells it was
    computed for: when few cells changed since (a tile played, moved or taken), only
    they and their neighbours are looked at again."""
    board = state.board
    cells = frozenset(board)
    kept = state.open_spaces_kept
    if kept is not None and kept[0] == cells:
        return list(kept[2])
    changed = None if kept is None else kept[0] ^ cells
    if changed is None or len(changed) > _MOST_CHANGED:
        spaces = open_spaces(state)
    else:
        spaces = set(kept[1])
        for cell in changed:
            for near in (cell, *(cell + step for step in NEIGHBOUR_STEPS)):
                if near not in board and any(near + step in board for step in NEIGHBOUR_STEPS):
                    spaces.add(near)
                else:
                    spaces.discard(near)
    ordered = tuple(sorted(spaces))
    state.open_spaces_kept = (cells, frozenset(spaces), ordered)
    return list(ordered)


_MOST_CHANGED = 6
"""More changed cells than this (a state from elsewhere) and the open spaces are found
from scratch."""


def can_move_somewhere(state: MegalopolisState) -> bool:
    """With two tiles or more on the table, every tile has somewhere to be moved to: the
    outermost of the other tiles has an empty side that is not the moved tile's cell."""
    return len(state.board) >= 2


def move_destinations(state: MegalopolisState, code: int) -> list[int]:
    """Where the tile at `code` may be moved to (Post Office): an empty cell, other than
    its own, next to another placed tile. Moved tiles ignore the Plaza."""
    return sorted(open_spaces(state, excluding=code))


def face_up_count(state: MegalopolisState, kind: int) -> int:
    return sum(1 for tile in state.board.values() if tile.face_up and tile.kind == kind)


def power_stations_in_play(state: MegalopolisState) -> int:
    return face_up_count(state, POWER_STATION)


def controlled(state: MegalopolisState, player: int) -> set[int]:
    """Cells of the tiles on which the player has at least one token."""
    return {code for code, tile in state.board.items() if tile.tokens[player] > 0}


def groups(cells: Iterable[int]) -> list[set[int]]:
    """Groups of edge-adjacent cells."""
    return connected_groups(cells, NEIGHBOUR_STEPS)


def token_owners(tile: Tile) -> list[int]:
    return [player for player, count in enumerate(tile.tokens) if count > 0]
