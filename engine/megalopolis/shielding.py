"""The Power Station's protection: the one check every effect goes through.

A face-up Power Station shields itself, the tiles adjacent to it, and the tokens on them
from the text of every other tile: they cannot be chosen, moved, swapped, removed, taken,
or have tokens put on or taken off them by an effect. The Capitol overrides it. A tile's
text still applies to its own tile (a Stadium next to a Power Station still gathers tokens
onto itself). Empty spaces are never shielded: a tile may be played, placed or moved next
to a Power Station. Face-down tiles have no text yet, so a face-down Power Station shields
nothing.
"""

from __future__ import annotations

from engine.megalopolis.components import CAPITOL, POWER_STATION
from engine.megalopolis.state import Frame, MegalopolisState
from engine.squaregrid import NEIGHBOUR_STEPS


def shielded_cells(state: MegalopolisState, effect: Frame) -> set[int]:
    """The cells whose tiles and tokens `effect` cannot touch: every face-up Power
    Station and the cells next to it, except the effect's own tile; none for the
    Capitol."""
    if effect.power == CAPITOL:
        return set()
    cells = set()
    for code, tile in state.board.items():
        if tile.kind == POWER_STATION and tile.face_up:
            cells.add(code)
            cells.update(code + step for step in NEIGHBOUR_STEPS)
    own = state.serial_cell(effect.source) if cells else None
    if own is not None:
        cells.discard(own)
    return cells


def is_shielded(state: MegalopolisState, code: int, effect: Frame) -> bool:
    """Whether the tile at `code` and its tokens are out of reach of `effect`."""
    return code in state.board and code in shielded_cells(state, effect)


def reachable(state: MegalopolisState, cells: list[int], effect: Frame) -> list[int]:
    """The cells among `cells` whose tiles `effect` may affect."""
    shielded = shielded_cells(state, effect)
    return [code for code in cells if code not in shielded]
