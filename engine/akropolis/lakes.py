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

if encode(0, 1) - encode(0, 0) != 1:
    raise AssertionError("`lakes_of` counts on cell codes stepping by 1 along r")


def lakes_of(occupied: Collection[int]) -> set[int]:
    """Empty cells not connected to the outside through empty cells (the rules' lakes).

    The same box as `scoring.outside_empty_cells`: a lake is an empty cell of the city's
    bounding box that the flood from the box's border (one cell out) does not reach."""
    if not occupied:
        return set()
    coords = [decode(cell) for cell in occupied]
    q_low = min(q for q, _ in coords) - 1
    q_high = max(q for q, _ in coords) + 1
    r_low = min(r for _, r in coords) - 1
    r_high = max(r for _, r in coords) + 1
    # Codes step by 1 along r, so each column of the box is a range of codes.
    columns = [encode(q, r_low) for q in range(q_low, q_high + 1)]
    height = r_high - r_low
    empty = {
        cell
        for bottom in columns[1:-1]
        for cell in range(bottom + 1, bottom + height)
        if cell not in occupied
    }
    frontier = [*range(columns[0], columns[0] + height + 1)]
    frontier += range(columns[-1], columns[-1] + height + 1)
    for bottom in columns[1:-1]:
        frontier += (bottom, bottom + height)
    while frontier:
        grown = []
        for cell in frontier:
            for step in STEP:
                nxt = cell + step
                if nxt in empty:
                    empty.discard(nxt)
                    grown.append(nxt)
        frontier = grown
    return empty


def bounds_of(cells: Collection[int]) -> Bounds:
    """The bounds of these cells ((0, 0) alone if there are none)."""
    coords = [decode(cell) for cell in cells] or [(0, 0)]
    return (
        min(q for q, _ in coords),
        max(q for q, _ in coords),
        min(r for _, r in coords),
        max(r for _, r in coords),
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
