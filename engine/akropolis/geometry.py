"""Where an Akropolis tile can go: triangles of three mutually adjacent hexes.

Every tile covers a triangle. A triangle is named by a cell y and a type t:
type 0 covers (y, y+D0, y+D1), type 1 covers (y, y+D1, y+D2), with D the rules'
neighbour list. Its id is `2 * code(y) + t`, so sorting ids is a fixed, documented order.
An action `(q, r, rotation o)` covers (p, p+D[o], p+D[o+1]); each triangle is reached by
exactly three actions, one per hex of the tile that lands on the anchor p.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.hexgrid import COORD_LIMIT, NEIGHBOUR_STEPS, encode

STEP = NEIGHBOUR_STEPS

D0, D1, D2, D3, D4, D5 = STEP

TRIANGLE_CELLS: tuple[tuple[int, int, int], ...] = ((0, D0, D1), (0, D1, D2))
"""Offsets from y of the three cells of a type-0 and a type-1 triangle."""

_CANONICAL: tuple[tuple[int, int], ...] = ((0, 0), (0, 1), (D3, 0), (D4, 1), (D4, 0), (D5, 1))
"""For rotation o: (offset from the anchor to y, triangle type)."""

TRIANGLE_ACTIONS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((0, 0), (D0, 2), (D1, 4)),
    ((0, 1), (D1, 3), (D2, 5)),
)
"""For each triangle type: the three (anchor offset from y, rotation) actions covering it."""


def triangle_of(anchor: int, rotation: int) -> int:
    offset, kind = _CANONICAL[rotation]
    return 2 * (anchor + offset) + kind


TRIANGLE_FROM_ANCHOR: tuple[int, ...] = tuple(triangle_of(0, rotation) for rotation in range(6))
"""`triangle_of(anchor, rotation) == 2 * anchor + TRIANGLE_FROM_ANCHOR[rotation]`."""

TILE_STEPS: tuple[tuple[int, int], ...] = tuple(
    (STEP[rotation], STEP[(rotation + 1) % 6]) for rotation in range(6)
)
"""For rotation o, the steps from the anchor to a tile's second and third cells."""


def _ring_offsets(kind: int) -> tuple[int, ...]:
    cells = set(TRIANGLE_CELLS[kind])
    return tuple(sorted({c + s for c in cells for s in STEP} - cells))


RING: tuple[tuple[int, ...], ...] = (_ring_offsets(0), _ring_offsets(1))
"""Offsets from y of the nine cells bordering a triangle."""


def triangles_touching(offsets: set[int]) -> tuple[int, ...]:
    """The ids of the triangles holding one of these cells, sorted."""
    found = set()
    for cell in offsets:
        for rotation in range(6):
            found.add(triangle_of(cell, rotation))
    return tuple(sorted(found))


TRIANGLES_OF_CELL: tuple[int, ...] = triangles_touching({0})
"""Triangle ids containing the cell coded 0 (add 2 * code to move them to a cell)."""


# --- the placement rules ------------------------------------------------------------------

Top = Mapping[int, tuple[int, ...]]
"""The visible hex on each occupied cell of a city, its level first."""


def is_legal(top: Top, tile_at: Mapping[int, int], triangle: int) -> bool:
    """Whether a tile may cover this triangle of a city (`top`, and which tile shows on
    each cell, `tile_at`). The rules:

    - on level 1, its three cells are empty and one of them at least touches the city;
    - above, its three cells hold hexes on one level, and not all of one tile (a tile
      may not lie on top of a single tile); it never stands over an empty space.
    """
    y, kind = divmod(triangle, 2)
    first, second, third = TRIANGLE_CELLS[kind]
    a, b, c = top.get(y + first), top.get(y + second), top.get(y + third)
    if a is None:
        # Level 1: three empty cells, one of the nine cells around them occupied.
        if b is not None or c is not None:
            return False
        return any(y + offset in top for offset in RING[kind])
    # Higher: three hexes on one level, not all three of one tile.
    if b is None or c is None or not a[0] == b[0] == c[0]:
        return False
    return not tile_at[y + first] == tile_at[y + second] == tile_at[y + third]


def scan_legal_triangles(top: Top, tile_at: Mapping[int, int]) -> list[int]:
    """Every triangle a tile may cover, sorted (the order of the legal actions): each
    triangle touching the city or its border, tried by `is_legal`."""
    cells = set(top)
    for cell in top:
        cells.update(cell + step for step in STEP)
    candidates = {2 * cell + relative for cell in cells for relative in TRIANGLES_OF_CELL}
    return sorted(t for t in candidates if is_legal(top, tile_at, t))


def explain_illegal(top: Top, anchor: int, rotation: int) -> str:
    """Which placement rule a tile at `anchor` and `rotation` breaks (it breaks one)."""
    cells = (anchor, anchor + STEP[rotation], anchor + STEP[(rotation + 1) % 6])
    below = [top.get(cell) for cell in cells]
    if all(h is None for h in below):
        return "on level 1 a tile must share an edge with the city"
    if any(h is None for h in below):
        return "a tile cannot stand over an empty space"
    if len({h[0] for h in below if h is not None}) > 1:
        return "the three hexes underneath must be on the same level"
    return "a tile cannot lie on top of a single tile"


ACTION_CELLS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(
        (offset, offset + TILE_STEPS[rotation][0], offset + TILE_STEPS[rotation][1])
        for offset, rotation in actions
    )
    for actions in TRIANGLE_ACTIONS
)
"""For each triangle type, the offsets from y of the three cells each of its three actions
covers, in `TRIANGLE_ACTIONS` order (the anchor's first)."""

FAR = COORD_LIMIT - 2
"""Coordinates this far out are refused before they are coded (no city comes near)."""
ORIGIN = encode(0, 0)
Q_STEP = encode(1, 0) - ORIGIN
R_STEP = encode(0, 1) - ORIGIN
"""An action's anchor is `ORIGIN + q * Q_STEP + r * R_STEP`."""
