"""What a placement does to the legality of the triangles around it, read off the cells
around it.

The legal triangles `city_cache` keeps with them must equal `geometry.scan_legal_triangles`.
A tile placed on a triangle changes the legality of the triangles near it alone (see
`city_cache`): those sharing a cell with it (an edge or a corner) and, on level 1, the ring
triangles, which share no cell with it but touch its ring. The cells the sharing ones
depend on beyond the tile's own are all ring cells; the ring triangles' are ring cells
and outer cells, one step further out. So a placement reads its nine ring cells once, as
two 9-bit masks in `RING_CYCLE` order (the empty ones, and those on the new tile's
level), on level 1 the outer cells that can matter as a 15-bit mask in `OUTER_CYCLE`
order (the empty ones), and these tables, indexed by masks, give the rest:

- `SPLIT_BY_LEVEL[kind][at_level]`: the sharing triangles that become legal (all their
  cells but the tile's on the tile's level) and those that do not, the placed triangle
  itself first;
- `MAYBE_LEGAL_BEFORE[kind][empty]`: of these, those that may have been legal just
  before a level-1 tile (for an update that knows the list was exact just before);
- `OUTER_NEEDED[kind][empty]`: the outer cells of the ring triangles whose ring cells
  are empty, the only ones worth reading;
- `RING_SECTORS[kind]`: the ring triangles whose cells are all empty, in three groups,
  each read off a short window of the ring mask and one of the outer mask (a table of
  2**10 entries a group where one table for both masks would need 2**24).

Relative ids and offsets are from the placed triangle's cell y, as in `geometry`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from engine.akropolis.fast.triangle_ring import RING_CYCLE, WHOLE_RING
from engine.akropolis.geometry import RING, STEP, TRIANGLE_CELLS, triangles_touching


def _neighbouring_triangles(
    kind: int,
) -> tuple[
    tuple[tuple[int, int], ...], tuple[tuple[int, int, int], ...], tuple[tuple[int, ...], ...]
]:
    """The triangles whose legality may change when a tile is placed on a triangle of
    this type (those touching its cells or its ring) but itself, sorted by
    what they share with it."""
    own = set(TRIANGLE_CELLS[kind])
    nearby = triangles_touching(own | set(RING[kind]))
    edge, corner, ring = [], [], []
    for relative in nearby:
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


RING_BITS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((offset, 1 << j) for j, offset in enumerate(RING_CYCLE[kind])) for kind in (0, 1)
)
"""For each triangle type, (offset from y, bit) of its ring cells in cyclic order."""

Split = tuple[tuple[int, ...], tuple[int, ...]]
"""(relative ids that become legal, relative ids that do not: the placed triangle's own,
`kind`, first)."""


def _mask(kind: int, offsets: Collection[int]) -> int:
    ring = RING_CYCLE[kind]
    return sum(1 << ring.index(offset) for offset in offsets if offset in ring)


def _split_by_level(kind: int) -> tuple[Split, ...]:
    sharing = [(relative, _mask(kind, (other,))) for relative, other in EDGE_TRIANGLES[kind]]
    sharing += [(relative, _mask(kind, others)) for relative, *others in CORNER_TRIANGLES[kind]]
    if [mask.bit_count() for _, mask in sharing] != [1] * len(EDGE_TRIANGLES[kind]) + [2] * len(
        CORNER_TRIANGLES[kind]
    ):
        raise AssertionError("the cells an edge or corner triangle does not share are ring cells")
    legal: list[list[int]] = [[] for _ in range(WHOLE_RING + 1)]
    not_legal: list[list[int]] = [[kind] for _ in range(WHOLE_RING + 1)]
    for relative, mask in sharing:
        for at_level in range(WHOLE_RING + 1):
            (legal if mask & at_level == mask else not_legal)[at_level].append(relative)
    return tuple(zip(map(tuple, legal), map(tuple, not_legal), strict=True))


SPLIT_BY_LEVEL: tuple[tuple[Split, ...], ...] = (_split_by_level(0), _split_by_level(1))

MAYBE_LEGAL_BEFORE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple((kind, *split[empty][0]) for empty in range(WHOLE_RING + 1))
    for kind, split in enumerate(SPLIT_BY_LEVEL)
)
"""`MAYBE_LEGAL_BEFORE[kind][empty]`: the triangles that may have been legal just before
a level-1 tile (its cells empty then): itself and the sharing triangles whose other cells
are empty. Any other sharing triangle had one empty cell (the tile's) and one occupied."""


def _cycle(cells: Collection[int]) -> tuple[int, ...]:
    """The cells in order around a triangle, each next to the one before."""
    left = sorted(cells)
    cycle = [left.pop(0)]
    while left:
        cycle.append(left.pop(next(i for i, cell in enumerate(left) if cell - cycle[-1] in STEP)))
    if cycle[0] - cycle[-1] not in STEP:
        raise AssertionError("the cells around a triangle form a cycle")
    return tuple(cycle)


def _outer_cycle(kind: int) -> tuple[int, ...]:
    ring = RING_CYCLE[kind]
    cells = {cell for _, *cells in RING_TRIANGLES[kind] for cell in cells}
    return _cycle(cells.difference(ring))


OUTER_CYCLE: tuple[tuple[int, ...], ...] = (_outer_cycle(0), _outer_cycle(1))
"""For each triangle type, the offsets from y of the cells beyond its ring that its ring
triangles cover (the 15 cells two steps away), in cyclic order: bit j of an outer mask."""

OUTER_WHOLE = (1 << len(OUTER_CYCLE[0])) - 1


def _ring_triangles(kind: int) -> list[tuple[int, list[int], list[int]]]:
    """(relative id, its ring bits, its outer bits) of each ring triangle."""
    ring, outer = RING_CYCLE[kind], OUTER_CYCLE[kind]
    return [
        (
            relative,
            [ring.index(cell) for cell in cells if cell in ring],
            [outer.index(cell) for cell in cells if cell not in ring],
        )
        for relative, *cells in RING_TRIANGLES[kind]
    ]


def _supersets(mask: int, whole: int = WHOLE_RING) -> list[int]:
    """The masks of `whole`'s bits holding every bit of `mask`."""
    found, superset = [], mask
    while superset <= whole:
        found.append(superset)
        superset = (superset + 1) | mask
    return found


def _outer_needed(kind: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    # Built at every start of a process, so built cheaply: each ring mask's outer mask
    # from the masks one bit smaller (an OR over subsets, bit by bit), and each outer
    # mask's cells from the mask without its lowest bit.
    outer = OUTER_CYCLE[kind]
    needed = [0] * (WHOLE_RING + 1)
    for _, ring_bits, outer_bits in _ring_triangles(kind):
        needed[sum(1 << bit for bit in ring_bits)] |= sum(1 << bit for bit in outer_bits)
    for bit in range(WHOLE_RING.bit_length()):
        step = 1 << bit
        needed = [
            value | needed[mask ^ step] if mask & step else value
            for mask, value in enumerate(needed)
        ]
    cells: dict[int, tuple[tuple[int, int], ...]] = {0: ()}

    def cells_of(mask: int) -> tuple[tuple[int, int], ...]:
        found = cells.get(mask)
        if found is None:
            lowest = mask & -mask
            found = ((outer[lowest.bit_length() - 1], lowest), *cells_of(mask ^ lowest))
            cells[mask] = found
        return found

    return tuple(map(cells_of, needed))


OUTER_NEEDED: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = (
    _outer_needed(0),
    _outer_needed(1),
)
"""`OUTER_NEEDED[kind][empty]`: (offset from y, bit) of the outer cells of the ring
triangles whose ring cells are all empty. An outer cell left unread counts as empty: the
ring triangles covering it are left out by their ring cells."""

SECTOR_RING_CELLS = 3
"""Ring triangles are grouped by the first of their ring cells, three ring cells a
group, so that a group depends on a short run of ring cells and of outer cells."""

Sector = tuple[int, int, int, int, int, tuple[tuple[int, ...], ...]]
"""(ring window start, ring window mask, outer window start, outer window mask, ring
window width, the group's ring triangles all empty for each pair of windows: ring
window | outer window << ring window width). A window may run past the end of its
cycle: it is read from the mask doubled (`mask | mask << cycle length`)."""


def _window(positions: Collection[int], size: int) -> tuple[int, int]:
    """(start, width) of the shortest cyclic run of 0..size-1 holding all positions."""
    return min(
        ((start, 1 + max((p - start) % size for p in positions)) for start in range(size)),
        key=lambda window: window[1],
    )


def _sector(members: Sequence[tuple[int, list[int], list[int]]]) -> Sector:
    ring_size, outer_size = len(RING_CYCLE[0]), len(OUTER_CYCLE[0])
    ring_start, ring_width = _window([bit for _, bits, _ in members for bit in bits], ring_size)
    outer_start, outer_width = _window([bit for _, _, bits in members for bit in bits], outer_size)
    if ring_width + outer_width > 10:
        raise AssertionError("a group of ring triangles depends on ten cells at most")
    # Each member's cells as a mask of the table index.
    needs = [
        (
            relative,
            sum(1 << (bit - ring_start) % ring_size for bit in ring_bits)
            | sum(1 << (bit - outer_start) % outer_size for bit in outer_bits) << ring_width,
        )
        for relative, ring_bits, outer_bits in members
    ]
    whole = (1 << (ring_width + outer_width)) - 1
    table: list[list[int]] = [[] for _ in range(whole + 1)]
    for relative, need in needs:
        for index in _supersets(need, whole):
            table[index].append(relative)
    ring_mask, outer_mask = (1 << ring_width) - 1, (1 << outer_width) - 1
    return ring_start, ring_mask, outer_start, outer_mask, ring_width, tuple(map(tuple, table))


def _sectors(kind: int) -> tuple[Sector, ...]:
    ring_size = len(RING_CYCLE[kind])
    groups: dict[int, list[tuple[int, list[int], list[int]]]] = {}
    for relative, ring_bits, outer_bits in _ring_triangles(kind):
        first = next(bit for bit in ring_bits if (bit - 1) % ring_size not in ring_bits)
        groups.setdefault(first // SECTOR_RING_CELLS, []).append((relative, ring_bits, outer_bits))
    return tuple(_sector(members) for _, members in sorted(groups.items()))


RING_SECTORS: tuple[tuple[Sector, ...], ...] = (_sectors(0), _sectors(1))
"""For each triangle type, its ring triangles in groups (`Sector`)."""


def _check_gains_distinct(kind: int) -> None:
    """A placement's gained ids (its sharing triangles', then each group's) are distinct,
    which lets `CityCache.update_legal` check them against the legal set alone, not one
    another: the sharing and the ring triangles are apart, the groups too."""
    sharing = {relative for relative, *_ in EDGE_TRIANGLES[kind] + CORNER_TRIANGLES[kind]}
    groups = [{id_ for ids in sector[5] for id_ in ids} for sector in RING_SECTORS[kind]]
    ring = set().union(*groups)
    if sharing & ring or sum(map(len, groups)) != len(ring):
        raise AssertionError("a placement's gained triangles are distinct")


_check_gains_distinct(0)
_check_gains_distinct(1)
