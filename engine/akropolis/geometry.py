"""Where an Akropolis tile can go: triangles of three mutually adjacent hexes.

Every tile covers a triangle. A triangle is named by a cell y and a type t:
type 0 covers (y, y+D0, y+D1), type 1 covers (y, y+D1, y+D2), with D the rules'
neighbour list. Its id is `2 * code(y) + t`, so sorting ids is a fixed, documented order.
An action `(q, r, rotation o)` covers (p, p+D[o], p+D[o+1]); each triangle is reached by
exactly three actions, one per hex of the tile that lands on the anchor p.
"""

from __future__ import annotations

from engine.hexgrid import NEIGHBOUR_STEPS

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


def _triangles_touching(offsets: set[int]) -> tuple[int, ...]:
    found = set()
    for cell in offsets:
        for rotation in range(6):
            found.add(triangle_of(cell, rotation))
    return tuple(sorted(found))


TRIANGLES_OF_CELL: tuple[int, ...] = _triangles_touching({0})
"""Triangle ids containing the cell coded 0 (add 2 * code to move them to a cell)."""

NEARBY_TRIANGLES: tuple[tuple[int, ...], ...] = tuple(
    _triangles_touching(set(TRIANGLE_CELLS[kind]) | set(RING[kind])) for kind in (0, 1)
)
"""For each type, the (relative) ids of the triangles whose legality may change when a
tile is placed on a triangle of that type: those touching its cells or its ring."""


def _neighbouring_triangles(
    kind: int,
) -> tuple[
    tuple[tuple[int, int], ...], tuple[tuple[int, int, int], ...], tuple[tuple[int, ...], ...]
]:
    """`NEARBY_TRIANGLES[kind]` but the triangle itself, sorted by what they share with it."""
    own = set(TRIANGLE_CELLS[kind])
    edge, corner, ring = [], [], []
    for relative in NEARBY_TRIANGLES[kind]:
        if relative == kind:
            continue
        dy, other_kind = divmod(relative, 2)
        cells = tuple(dy + offset for offset in TRIANGLE_CELLS[other_kind])
        outside = tuple(cell for cell in cells if cell not in own)
        if len(outside) == 1:
            edge.append((relative, outside[0]))
        elif len(outside) == 2:
            corner.append((relative, outside[0], outside[1]))
        else:
            ring.append((relative, *cells))
    return tuple(edge), tuple(corner), tuple(ring)


_NEIGHBOURING = (_neighbouring_triangles(0), _neighbouring_triangles(1))

EDGE_TRIANGLES: tuple[tuple[tuple[int, int], ...], ...] = tuple(n[0] for n in _NEIGHBOURING)
"""For each type, the triangles sharing an edge with one: (relative id, offset from y of
the one cell they do not share)."""
CORNER_TRIANGLES: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(n[1] for n in _NEIGHBOURING)
"""The triangles sharing a single cell: (relative id, offsets of their two other cells)."""
RING_TRIANGLES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(n[2] for n in _NEIGHBOURING)
"""The triangles sharing no cell but touching the ring: (relative id, offsets of their
three cells)."""
