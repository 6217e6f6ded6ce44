"""Fast path of `sorted(table.open_spaces(state))`: the open spaces kept between turns.

The empty cells next to a placed tile change only around the cells where a tile came or
went. So the state's caches keep the occupied cells with the open spaces found for them;
when few cells changed since (a tile played, moved or taken), only they and their
neighbours are looked at again. Checked against `table.open_spaces` by
tests/engine/megalopolis/fast/test_open_spaces.py.
"""

from __future__ import annotations

from engine.megalopolis.state import MegalopolisState
from engine.squaregrid import NEIGHBOUR_STEPS

MOST_CHANGED = 6
"""More changed cells than this (a state from elsewhere) and the open spaces are found
from scratch."""


def sorted_open_spaces(state: MegalopolisState) -> list[int]:
    """`sorted(table.open_spaces(state))`, kept in `state.caches.open_spaces` with the
    occupied cells it was computed for."""
    board = state.board
    cells = frozenset(board)
    kept = state.caches.open_spaces
    if kept is not None and kept[0] == cells:
        return list(kept[2])
    changed = None if kept is None else kept[0] ^ cells
    if changed is None or len(changed) > MOST_CHANGED:
        spaces = {code + step for code in board for step in NEIGHBOUR_STEPS}
        spaces.difference_update(board)
    else:
        spaces = set(kept[1])
        for cell in changed:
            for near in (cell, *(cell + step for step in NEIGHBOUR_STEPS)):
                if near not in board and any(near + step in board for step in NEIGHBOUR_STEPS):
                    spaces.add(near)
                else:
                    spaces.discard(near)
    ordered = tuple(sorted(spaces))
    state.caches.open_spaces = (cells, frozenset(spaces), ordered)
    return list(ordered)
