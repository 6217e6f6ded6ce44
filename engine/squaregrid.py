"""Square-grid cells shared by the games played on a square grid (Architekton, Megalopolis).

A cell is `(x, y)` with x growing east and y growing north. Cells are also coded as single
integers so that hot loops add a constant to step to a neighbour; sorting the codes sorts
by (x, y).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Cell = tuple[int, int]

DIRECTIONS: tuple[Cell, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""The four edge neighbours, clockwise from north: N, E, S, W (direction 0..3)."""

DIAGONALS: tuple[Cell, ...] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
"""The four corner neighbours, clockwise from north-east: NE, SE, SW, NW."""

_OFFSET = 1 << 11
_STRIDE = 1 << 12
COORD_LIMIT = _OFFSET - 1
"""Largest |x| or |y| a coded cell may have; a board never comes near this."""

NEIGHBOUR_STEPS: tuple[int, ...] = tuple(dx * _STRIDE + dy for dx, dy in DIRECTIONS)
"""`code + NEIGHBOUR_STEPS[d]` is the code of the edge neighbour in direction d."""

DIAGONAL_STEPS: tuple[int, ...] = tuple(dx * _STRIDE + dy for dx, dy in DIAGONALS)
"""`code + DIAGONAL_STEPS[k]` is the code of the k-th corner neighbour."""


def opposite(direction: int) -> int:
    """The direction pointing back: north <-> south, east <-> west."""
    return (direction + 2) % 4


def in_range(x: int, y: int) -> bool:
    return -COORD_LIMIT <= x <= COORD_LIMIT and -COORD_LIMIT <= y <= COORD_LIMIT


def encode(x: int, y: int) -> int:
    if not in_range(x, y):
        raise ValueError(f"cell ({x}, {y}) is out of range")
    return (x + _OFFSET) * _STRIDE + (y + _OFFSET)


def decode(code: int) -> Cell:
    return code // _STRIDE - _OFFSET, code % _STRIDE - _OFFSET


def neighbours(x: int, y: int) -> list[Cell]:
    return [(x + dx, y + dy) for dx, dy in DIRECTIONS]


def neighbour_codes(code: int) -> list[int]:
    return [code + step for step in NEIGHBOUR_STEPS]


def bounds(codes: list[int] | set[int]) -> tuple[int, int, int, int]:
    """(min x, max x, min y, max y) of some coded cells; all zero when there are none."""
    if not codes:
        return 0, 0, 0, 0
    cells = [decode(code) for code in codes]
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return min(xs), max(xs), min(ys), max(ys)


def connected_groups(cells: Iterable[int], steps: Sequence[int]) -> list[set[int]]:
    """The groups of cells (codes) connected through the given steps (edge neighbours
    with NEIGHBOUR_STEPS, corner neighbours with DIAGONAL_STEPS)."""
    left = set(cells)
    groups = []
    while left:
        start = left.pop()
        group = {start}
        frontier = [start]
        while frontier:
            code = frontier.pop()
            for step in steps:
                other = code + step
                if other in left:
                    left.remove(other)
                    group.add(other)
                    frontier.append(other)
        groups.append(group)
    return groups
