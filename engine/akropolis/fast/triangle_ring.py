"""The cells around a triangle, in cyclic order, and which triangle cells each touches:
tables for the fast paths, derived from `geometry` at import (no rule of their own).

A triangle (see `geometry`) has nine ring cells: the cells next to it that are not its
own. Walking them in cyclic order, each next to the one before, lets a placement tell
in a few bit operations whether the empty ones form one run or several (a tile that may
close a lake). Offsets are from the triangle's cell y; a set of ring cells is a 9-bit
mask, bit j for the j-th cell in cyclic order.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from engine.akropolis.geometry import RING, STEP, TRIANGLE_ACTIONS, TRIANGLE_CELLS


def _ring_cycle(kind: int) -> tuple[int, ...]:
    """The nine ring offsets in order around the triangle, each next to the one before."""
    ring = sorted(RING[kind])
    cycle = [ring[0]]
    while len(cycle) < len(ring):
        cycle.append(next(c for c in ring if c - cycle[-1] in STEP and c not in cycle))
    if cycle[0] - cycle[-1] not in STEP:
        raise AssertionError("the ring of a triangle is a cycle")
    return tuple(cycle)


RING_CYCLE: tuple[tuple[int, ...], ...] = (_ring_cycle(0), _ring_cycle(1))
"""For each triangle type, the offsets from y of its nine ring cells, in cyclic order."""

RING_TOUCHES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(i for i, c in enumerate(TRIANGLE_CELLS[kind]) if r - c in STEP)
        for r in RING_CYCLE[kind]
    )
    for kind in (0, 1)
)
"""For each type and ring cell (cyclic order): the triangle cells (0..2) it touches."""

CELL_RING: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(j for j, touches in enumerate(RING_TOUCHES[kind]) if i in touches) for i in range(3)
    )
    for kind in (0, 1)
)
"""For each type and triangle cell: its four ring neighbours (indices in cyclic order);
its other two neighbours are the triangle's other cells."""

CELL_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << j for j in around) for around in CELL_RING[kind]) for kind in (0, 1)
)
"""`CELL_RING` as bit masks over the ring's cyclic order."""

WHOLE_RING = (1 << 9) - 1


def _code_order() -> tuple[tuple[int, int, int], ...]:
    orders = set()
    for kind in (0, 1):
        per_kind = []
        for offset, rotation in TRIANGLE_ACTIONS[kind]:
            placed = (offset, offset + STEP[rotation], offset + STEP[(rotation + 1) % 6])
            first, second, third = (placed.index(cell) for cell in TRIANGLE_CELLS[kind])
            per_kind.append((first, second, third))
        orders.add(tuple(per_kind))
    if len(orders) != 1:
        raise AssertionError("both triangle types order their actions alike")
    return orders.pop()


CODE_ORDER: tuple[tuple[int, int, int], ...] = _code_order()
"""CODE_ORDER[which][j]: the tile hex that lands on the triangle's cell j when the tile is
placed by the triangle's `which`-th action (see `geometry`)."""


def run_starts(ring_bits: int) -> int:
    """The first cell of each run of set bits around the ring (a bit whose cyclic
    predecessor is clear)."""
    return ring_bits & ~((ring_bits << 1 | ring_bits >> 8) & WHOLE_RING)


def ring_bits_in(y: int, kind: int, candidates: int, cells: Collection[int]) -> int:
    """The bits j of `candidates` whose ring cell (y + RING_CYCLE[kind][j]) is in `cells`."""
    offsets: Sequence[int] = RING_CYCLE[kind]
    bits = 0
    for j, offset in enumerate(offsets):
        if candidates >> j & 1 and y + offset in cells:
            bits |= 1 << j
    return bits
