"""Lakes: the empty cells of a city that no path of empty cells joins to the outside.

`lakes_of` finds every lake of a city; `lakes_closed_by` finds only those a new level-1
tile encloses, with work about the size of the new lakes rather than of the outside.
Both must equal the plain flood of `scoring.outside_empty_cells`: a lake is an empty cell
of the city's box it leaves out.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Container, Iterable, Sequence

from engine.akropolis.geometry import STEP
from engine.hexgrid import decode, encode

Bounds = tuple[int, int, int, int]
"""(q low, q high, r low, r high) of a set of cells."""

_R_BITS = 12
if encode(0, 1) - encode(0, 0) != 1 or encode(1, 0) - encode(0, 0) != 1 << _R_BITS:
    raise AssertionError("`lakes_of` reads a cell code as q << 12 | r (both offset)")
_R_MASK = (1 << _R_BITS) - 1
_R_OFFSET = encode(0, 0) & _R_MASK
_Q_OFFSET = encode(0, 0) >> _R_BITS


def lakes_of(occupied: Collection[int]) -> set[int]:
    """Empty cells not connected to the outside through empty cells (the rules' lakes).

    The same box as `scoring.outside_empty_cells`: a lake is an empty cell of the city's
    bounding box that the flood from the box's border (one cell out) does not reach.

    The box is one integer, a bit per cell, row after row (one row per q, with a spare
    bit at the end of each row so that no step wraps into the next row), and the flood
    steps every reached cell at once: a neighbour is a shift by 1, the row width, or
    the row width less 1. A step costs a few big-integer operations whatever the box's
    size, and the flood takes as many steps as the outside is deep."""
    if not occupied:
        return set()
    q_base, rows, r_base, width = box_of(occupied)
    # Bit (q - q_base) * width + r - r_base of a cell, from its code q << 12 | r.
    shrink = (1 << _R_BITS) - width
    base = q_base * width + r_base
    filled = 0
    for cell in occupied:
        filled |= 1 << (cell - (cell >> _R_BITS) * shrink - base)
    empty = box_masks(rows, width)[0] & ~filled
    _, left = outside_and_lakes(empty, rows, width)
    lakes = set()
    while left:
        low = left & -left
        index = low.bit_length() - 1
        left ^= low
        q, r = divmod(index, width)
        lakes.add((q + q_base) << _R_BITS | (r + r_base))
    return lakes


def box_of(cells: Iterable[int]) -> tuple[int, int, int, int]:
    """(q base, rows, r base, width) of the box of these cells (not none) with a margin
    of one, a row per q from q base, each `width` bits from r base: the r bounds'
    and a spare bit so that no shift by 1 wraps into the next row. One loop finds the
    bounds: cheaper than min and max, which compare generically."""
    low = high = next(iter(cells))
    r_low = r_high = low & _R_MASK
    for cell in cells:
        if cell < low:
            low = cell
        elif cell > high:
            high = cell
        r = cell & _R_MASK
        if r < r_low:
            r_low = r
        elif r > r_high:
            r_high = r
    q_base = (low >> _R_BITS) - 1
    return q_base, (high >> _R_BITS) + 2 - q_base, r_low - 1, r_high - r_low + 4


@functools.cache
def box_masks(rows: int, width: int) -> tuple[int, int, int]:
    """(cells, first column, border) of a box as `box_of` lays it out: its cells (every
    row's but the spare bit), the first cell of each row, and the cells of its border.
    Cached: the boxes are few (random games' cities mostly share one, `board_score`'s
    window)."""
    row = (1 << (width - 1)) - 1
    first_column = ((1 << (rows * width)) - 1) // ((1 << width) - 1)
    border = row | row << ((rows - 1) * width) | first_column | first_column << (width - 2)
    return row * first_column, first_column, border


def plainly_outside(empty: int, rows: int, width: int) -> int:
    """Empty cells of a box surely outside, a flood's start: the box's border and the
    runs of empty cells from its left column along each row, found at once by the
    carry of one addition (the row's spare bit, never empty, stops it)."""
    _, first_column, border = box_masks(rows, width)
    return border | ((empty + first_column) ^ empty) & empty


def outside_and_lakes(empty: int, rows: int, width: int) -> tuple[int, int]:
    """The empty cells of a box (as `lakes_of` lays it out) that the outside reaches,
    and the others (the lakes): flooded from the box's border, every reached cell a
    step at a time."""
    outside = plainly_outside(empty, rows, width)
    step = width - 1
    while True:
        # The reached cells and their neighbours: 1 and -1 bits away, and two pairs,
        # width - 1 and width, -width and 1 - width, each one shift of `pair`.
        pair = outside | outside << 1
        grown = (pair | pair >> 1 | pair << step | pair >> width) & empty
        if grown == outside:
            return outside, empty & ~outside
        outside = grown


def bounds_of(cells: Collection[int]) -> Bounds:
    """The bounds of these cells ((0, 0) alone if there are none), from their box."""
    if not cells:
        return (0, 0, 0, 0)
    q_base, rows, r_base, width = box_of(cells)
    q_low = q_base + 1 - _Q_OFFSET
    r_low = r_base + 1 - _R_OFFSET
    return (q_low, q_low + rows - 3, r_low, r_low + width - 4)


def lakes_closed_by(
    occupied: Container[int], bounds: Bounds, filled: tuple[int, int, int], starts: Sequence[int]
) -> set[int]:
    """The empty cells a level-1 tile on `filled` (three cells of the outside) encloses in
    a city whose occupied cells have these bounds; `starts` holds one empty ring cell of
    each run around the tile.

    The runs' regions are flooded in turns, a layer each. A region is outside once it
    passes the occupied cells' bounds; when all regions but one have run dry, that one
    is outside (the tile stood in the outside, so one run at least still leads there).
    Regions that meet are merged. The regions run dry are the new lakes, so the work
    is about the size of the lakes, not of the outside."""
    q_low, q_high, r_low, r_high = bounds
    for q, r in map(decode, filled):
        q_low, q_high = min(q_low, q), max(q_high, q)
        r_low, r_high = min(r_low, r), max(r_high, r)
    count = len(starts)
    owner = {cell: k for k, cell in enumerate(starts)}
    parent = list(range(count))
    frontiers = [[cell] for cell in starts]
    regions = [[cell] for cell in starts]
    outside = [False] * count

    def root(k: int) -> int:
        while parent[k] != k:
            k = parent[k]
        return k

    while True:
        live = [k for k in range(count) if parent[k] == k]
        growing = [k for k in live if frontiers[k] and not outside[k]]
        if not growing:
            break
        if len(growing) == 1 and not any(outside[k] for k in live):
            outside[growing[0]] = True
            break
        for k in growing:
            if parent[k] != k or outside[k]:
                continue
            grown: list[int] = []
            for cell in frontiers[k]:
                for step in STEP:
                    near = cell + step
                    if near in occupied or near in filled:
                        continue
                    other = owner.get(near)
                    if other is None:
                        q, r = decode(near)
                        if q < q_low or q > q_high or r < r_low or r > r_high:
                            outside[k] = True
                            break
                        owner[near] = k
                        grown.append(near)
                        regions[k].append(near)
                    elif (other := root(other)) != k:
                        parent[other] = k
                        outside[k] = outside[k] or outside[other]
                        grown += frontiers[other]
                        regions[k] += regions[other]
                        frontiers[other] = []
                if outside[k]:
                    break
            frontiers[k] = [] if outside[k] else grown
    enclosed: set[int] = set()
    for k in range(count):
        if parent[k] == k and not outside[k]:
            enclosed.update(regions[k])
    return enclosed
