"""Lakes: the empty cells of a city that no path of empty cells joins to the outside.

`lakes_of` finds every lake of a city; `lakes_closed_by` finds only those a new level-1
tile encloses, with work about the size of the new lakes rather than of the outside.
"""

from __future__ import annotations

from collections.abc import Collection, Container, Sequence

from engine.akropolis.geometry import STEP
from engine.hexgrid import decode, encode

Bounds = tuple[int, int, int, int]
"""(q low, q high, r low, r high) of a set of cells."""

_R_BITS = 12
if encode(0, 1) - encode(0, 0) != 1 or encode(1, 0) - encode(0, 0) != 1 << _R_BITS:
    raise AssertionError("`lakes_of` reads a cell code as q << 12 | r (both offset)")
_R_MASK = (1 << _R_BITS) - 1
_R_OFFSET = encode(0, 0) & _R_MASK


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
    qs = [cell >> _R_BITS for cell in occupied]
    rs = [cell & _R_MASK for cell in occupied]
    q_base, r_base = min(qs) - 1, min(rs) - 1
    rows, width = max(qs) + 2 - q_base, max(rs) + 3 - r_base
    # Bit (q - q_base) * width + (r - r_base); bit width - 1 of each row is the spare.
    filled = 0
    for q, r in zip(qs, rs, strict=True):
        filled |= 1 << ((q - q_base) * width + r - r_base)
    first_column = ((1 << (rows * width)) - 1) // ((1 << width) - 1)
    row = (1 << (width - 1)) - 1
    box = row * first_column
    border = row | row << ((rows - 1) * width) | first_column | first_column << (width - 2)
    empty = box & ~filled
    outside = border
    step = width - 1
    while True:
        grown = (
            outside
            | outside << 1
            | outside >> 1
            | outside << width
            | outside >> width
            | outside << step
            | outside >> step
        ) & empty
        if grown == outside:
            break
        outside = grown
    lakes = set()
    left = empty & ~outside
    while left:
        low = left & -left
        index = low.bit_length() - 1
        left ^= low
        q, r = divmod(index, width)
        lakes.add((q + q_base) << _R_BITS | (r + r_base))
    return lakes


def bounds_of(cells: Collection[int]) -> Bounds:
    """The bounds of these cells ((0, 0) alone if there are none). A code orders cells
    by q first, so the lowest and highest codes hold the q bounds."""
    if not cells:
        return (0, 0, 0, 0)
    rs = [cell & _R_MASK for cell in cells]
    return (
        decode(min(cells))[0],
        decode(max(cells))[0],
        min(rs) - _R_OFFSET,
        max(rs) - _R_OFFSET,
    )


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
