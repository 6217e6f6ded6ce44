"""The greedy bot's gains, computed exactly but without rescoring the city for each action.

The gain of an action is the city's score after the placement minus the score before,
stones included (the tile's cost is paid, each covered quarry gives a stone back).
`greedy.naive_gains` computes it by rescoring the whole city for every action; it stays as
the oracle, and the tests check that `fast_gains` gives the very same list.

Score = sum over colours of value[c] * stars[c], plus stones. A placement changes little,
so the work is split three ways:

- per turn (`CityGains`): the visible hexes, stars and values per colour, the lakes (empty
  cells not connected to the outside), what each district is worth and the counts its
  worth depends on, and the groups of houses;
- per triangle (`Placement`), whatever tile goes there: the level, the hexes and quarries
  it covers, everything that depends only on which cells are occupied (temples around it
  becoming surrounded, barracks around it losing empty neighbours, lakes appearing or
  shrinking, gardens losing or gaining a lake) and what a new barracks, temple or garden
  on each of its cells would be worth; the score with three neutral hexes on it;
- per triangle and tile codes in the triangle's cell order (once per distinct codes:
  several site tiles and rotations often give the same): the plazas' stars, the new
  districts, markets next to markets or market plazas, and the largest house group.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from engine.akropolis.actions import LegalActions, placement_of
from engine.akropolis.components import (
    BARRACKS,
    COLOR_INDEX_OF,
    GARDEN,
    HEX_CODES,
    HOUSE,
    IS_PLAZA,
    MARKET,
    MARKET_PLAZA,
    QUARRY,
    STARS_OF_CODE,
    TEMPLE,
    hex_code,
)
from engine.akropolis.geometry import RING, STEP, TRIANGLE_ACTIONS, TRIANGLE_CELLS, triangle_of
from engine.akropolis.scoring import VARIANTS, score_surface
from engine.hexgrid import decode, encode

Surface = dict[int, tuple[int, int, int]]
"""Visible hexes by cell code: (level, hex code, plaza stars)."""

HOUSE_I, MARKET_I, BARRACKS_I, TEMPLE_I, GARDEN_I = (
    COLOR_INDEX_OF[code] for code in (HOUSE, MARKET, BARRACKS, TEMPLE, GARDEN)
)
_NO_HEX = (0, -1, 0)
"""Stands for an empty cell where a hex code is looked at (-1 is no hex code)."""


def surface_from_json(hexes: Sequence[dict[str, Any]]) -> Surface:
    """The visible hexes of a city given as in the observation."""
    surface: Surface = {}
    for h in hexes:
        code = hex_code(h["kind"], h.get("color"))
        surface[encode(h["q"], h["r"])] = (h["level"], code, h.get("stars", STARS_OF_CODE[code]))
    return surface


# --- the geometry of a triangle, relative to its cell y ---------------------------------


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


def _code_order() -> tuple[tuple[int, int, int], ...]:
    orders = set()
    for kind in (0, 1):
        per_kind = []
        for offset, rotation in TRIANGLE_ACTIONS[kind]:
            placed = (offset, offset + STEP[rotation], offset + STEP[(rotation + 1) % 6])
            a, b, c = (placed.index(cell) for cell in TRIANGLE_CELLS[kind])
            per_kind.append((a, b, c))
        orders.add(tuple(per_kind))
    if len(orders) != 1:
        raise AssertionError("both triangle types order their actions alike")
    return orders.pop()


CODE_ORDER: tuple[tuple[int, int, int], ...] = _code_order()
"""CODE_ORDER[which][j]: the tile hex that lands on the triangle's cell j when the tile is
placed by the triangle's `which`-th action (see `geometry`)."""

CELL_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << j for j in around) for around in CELL_RING[kind]) for kind in (0, 1)
)
"""`CELL_RING` as bit masks over the ring's cyclic order."""
_ALL_RING = (1 << 9) - 1

# Why a level-1 tile in the outside whose ring has one run of empty cells closes no lake:
# take an empty cell x of the outside other than the tile's three, and a path of empty cells
# from x to the outside. If the path crosses the triangle, it enters it from an empty ring
# cell a (just before its first triangle cell) and leaves it to an empty ring cell b (just
# after its last one). The ring is a cycle of nine cells, each touching the next, so when its
# empty cells form one run, a and b are joined along that run and the path can go round the
# triangle instead. So every empty cell but the three stays outside, the lakes stay as they
# were, and only the barracks and temples touching the triangle see a change (fewer empty
# neighbours). With two runs or more the tile may close a loop through the city:
# `CityGains.new_lakes` finds what it encloses.

_OUTSIDE_RING, _IN_LAKE, _COVERING, _LAKE_MADE = range(4)
"""The ways a placement changes the barracks, temples and gardens around it: a level-1
tile in the outside (barracks and temples around lose empty neighbours), a level-1 tile
in a lake (temples lose holes, gardens their lake), a tile on level 2 or more (nothing
changes) and a level-1 tile that closes new lakes (everything is checked again)."""

_HOUSE_NEAR, _MARKET_NEAR, _MARKET_PLAZA_NEAR, _RECOUNTED = range(1, 5)


def _ring_roles(mode: int) -> tuple[int, ...]:
    recounted = {
        _OUTSIDE_RING: (BARRACKS, TEMPLE),
        _IN_LAKE: (TEMPLE, GARDEN),
        _COVERING: (),
        _LAKE_MADE: (),  # rescored by `Placement.close_lakes`
    }[mode]
    roles = [0] * HEX_CODES
    roles[HOUSE], roles[MARKET], roles[MARKET_PLAZA] = _HOUSE_NEAR, _MARKET_NEAR, _MARKET_PLAZA_NEAR
    for code in recounted:
        roles[code] = _RECOUNTED
    return tuple(roles)


_RING_ROLE: tuple[tuple[int, ...], ...] = tuple(_ring_roles(mode) for mode in range(4))
"""For each mode and hex code: what a hex of the ring does for `Placement.of` (0: nothing;
else a house, a market or a market plaza next to the tile, or a barracks, temple or garden
whose count the tile changes)."""


# --- the city as it stands ---------------------------------------------------------------


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


class CityGains:
    """One city at the start of a turn, ready to tell the score after any placement."""

    def __init__(self, surface: Surface, variants: Collection[str]) -> None:
        self.top = surface
        self.double_houses = "houses" in variants
        self.double_markets = "markets" in variants
        self.double_barracks = "barracks" in variants
        self.double_temples = "temples" in variants
        self.double_gardens = "gardens" in variants
        self.lakes = lakes_of(surface)
        self.barracks_factor = tuple(
            0 if not edges else 2 if self.double_barracks and 3 <= edges <= 4 else 1
            for edges in range(7)
        )
        """A barracks' worth per level by its number of empty neighbours in the outside."""
        coords = [decode(cell) for cell in surface] or [(0, 0)]
        self.bounds = (
            min(q for q, _ in coords),
            max(q for q, _ in coords),
            min(r for _, r in coords),
            max(r for _, r in coords),
        )
        """(q low, q high, r low, r high) of the occupied cells."""
        self.stars = [0] * 5
        self.values = [0] * 5
        self.district_value: dict[int, int] = {}
        """What each market, barracks, temple and garden adds to its colour's value now."""
        self.count: dict[int, int] = {}
        """What that depends on: a barracks' outside neighbours, a temple's empty neighbours,
        a garden's lake neighbours."""
        self.market_near: dict[int, tuple[int, int]] = {}
        """For each market: (neighbouring markets, neighbouring market plazas)."""
        top, lakes = surface, self.lakes
        for cell, (level, code, stars) in surface.items():
            if IS_PLAZA[code]:
                self.stars[COLOR_INDEX_OF[code]] += stars
                continue
            if code in (QUARRY, HOUSE):
                continue
            if code == MARKET:
                markets = plazas = 0
                for step in STEP:
                    near = top.get(cell + step, _NO_HEX)[1]
                    markets += near == MARKET
                    plazas += near == MARKET_PLAZA
                self.market_near[cell] = (markets, plazas)
                value = self.market_worth(level, markets, plazas)
            else:
                count = 0
                for step in STEP:
                    near = cell + step
                    if near not in top:
                        if code == BARRACKS:
                            count += near not in lakes
                        elif code == TEMPLE:
                            count += 1
                        else:
                            count += near in lakes
                self.count[cell] = count
                value = self.district_worth(code, level, count)
            self.district_value[cell] = value
            self.values[COLOR_INDEX_OF[code]] += value
        self.house_group: dict[int, int] = {}
        """The group index of each visible house."""
        self.groups: list[tuple[int, int]] = []
        """(size, value) of each group of edge-connected houses."""
        for cell, (_, code, _) in surface.items():
            if code == HOUSE and cell not in self.house_group:
                self.groups.append(self.grow_group(cell, len(self.groups), self.house_group, ()))
        self.group_order = sorted(
            range(len(self.groups)), key=self.groups.__getitem__, reverse=True
        )
        """Group indices, largest first (by size, then value, as the scoring has it)."""
        best = self.groups[self.group_order[0]][1] if self.groups else 0
        self.values[HOUSE_I] = self.house_worth(best)
        self.score = sum(v * s for v, s in zip(self.values, self.stars, strict=True))
        """The score without the stones."""
        self._placements: dict[int, Placement | None] = {}

    # -- what one district is worth, as `scoring.score_surface` has it --

    def market_worth(self, level: int, markets: int, plazas: int) -> int:
        if markets:
            return 0
        return 2 * level if plazas and self.double_markets else level

    def district_worth(self, code: int, level: int, count: int) -> int:
        """A barracks, temple or garden's worth from its count (see `count`)."""
        if code == BARRACKS:
            if not count:
                return 0
            return 2 * level if self.double_barracks and 3 <= count <= 4 else level
        if code == TEMPLE:
            if count:
                return 0
            return 2 * level if self.double_temples and level >= 2 else level
        return 2 * level if count and self.double_gardens else level

    def house_worth(self, value: int) -> int:
        return 2 * value if self.double_houses and value >= 10 else value

    def recount(self, cell: int, code: int, filled: Collection[int], lakes: Collection[int]) -> int:
        """A barracks, temple or garden's count with `filled` occupied too and these lakes."""
        top = self.top
        count = 0
        for step in STEP:
            near = cell + step
            if near not in top and near not in filled:
                if code == BARRACKS:
                    count += near not in lakes
                elif code == TEMPLE:
                    count += 1
                else:
                    count += near in lakes
        return count

    def grow_group(
        self, start: int, index: int, group_of: dict[int, int], removed: Collection[int]
    ) -> tuple[int, int]:
        """Flood a house group from `start`, not through `removed`; (size, value)."""
        top = self.top
        group_of[start] = index
        stack = [start]
        size = value = 0
        while stack:
            cell = stack.pop()
            size += 1
            value += top[cell][0]
            for step in STEP:
                near = cell + step
                if near not in group_of and near not in removed:
                    hex_ = top.get(near)
                    if hex_ is not None and hex_[1] == HOUSE:
                        group_of[near] = index
                        stack.append(near)
        return size, value

    def new_lakes(self, filled: tuple[int, int, int], starts: Sequence[int]) -> set[int]:
        """The empty cells a level-1 tile on `filled` (three cells of the outside) encloses;
        `starts` holds one empty ring cell of each run around it.

        The runs' regions are flooded in turns, a layer each. A region is outside once it
        passes the occupied cells' bounds; when all regions but one have run dry, that one
        is outside (the tile stood in the outside, so one run at least still leads there).
        Regions that meet are merged. The regions run dry are the new lakes, so the work
        is about the size of the lakes, not of the outside."""
        top = self.top
        q_low, q_high, r_low, r_high = self.bounds
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
                        if near in top or near in filled:
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

    # -- placements --

    def placement(self, triangle: int) -> Placement | None:
        """What a tile on this triangle would do; None if the triangle is not flat
        (neither three empty cells nor three hexes on one level), as no legal one is."""
        if triangle not in self._placements:
            self._placements[triangle] = Placement.of(self, triangle)
        return self._placements[triangle]


class Placement:
    """A tile on one triangle: the score after it, as a function of the tile's hex codes."""

    __slots__ = (
        "base",
        "city",
        "group_order",
        "groups",
        "house_near",
        "house_values",
        "level",
        "market_base",
        "market_plazas_near",
        "markets_near",
        "plaza_sensitive",
        "quarries",
        "ring_markets",
        "stars",
        "values",
        "worth",
    )

    def __init__(self, city: CityGains, level: int) -> None:
        self.city = city
        self.level = level
        self.quarries = 0
        self.values = city.values.copy()
        """Values per colour with neutral hexes (quarries, say) on the triangle."""
        self.stars = city.stars.copy()
        """Stars per colour once the triangle is covered."""
        self.base = 0
        """The score without stones with neutral hexes on the triangle."""
        self.worth: tuple[tuple[int, ...], ...] = ()
        """For each triangle cell and colour: what a new barracks, temple or garden there
        would be worth (0 for the other colours)."""
        self.market_base = 0
        """The markets' value but for those around the triangle."""
        self.ring_markets: list[tuple[int, bool, bool, tuple[int, ...]]] = []
        """Markets around: (level, next to another market, next to a market plaza, the
        triangle cells they touch), the first two not counting the triangle's cells."""
        self.plaza_sensitive = False
        """Whether a market plaza on the triangle would double a market around it."""
        self.markets_near = 0
        self.market_plazas_near = 0
        """Bit i: a market (market plaza) of the ring is next to cell i."""
        self.house_near: tuple[list[int], ...] = ()
        """For each cell: the house groups next to it (empty tuple: none at all)."""
        self.groups: Sequence[tuple[int, int]] = city.groups
        self.group_order: Sequence[int] = city.group_order
        self.house_values: dict[int, int] = {}
        """The house colour's value by mask of new houses, as far as asked for."""

    @classmethod
    def of(cls, city: CityGains, triangle: int) -> Placement | None:
        y, kind = triangle >> 1, triangle & 1
        oa, ob, oc = TRIANGLE_CELLS[kind]
        cells = (y + oa, y + ob, y + oc)
        get = city.top.get
        a, b, c = get(cells[0]), get(cells[1]), get(cells[2])
        if a is None:
            if b is not None or c is not None:
                return None
            level = 1
            below: tuple[tuple[int, int, int], ...] = ()
            covered: tuple[int, ...] = ()
        elif b is None or c is None or not a[0] == b[0] == c[0]:
            return None
        else:
            level = a[0] + 1
            below = (a, b, c)
            covered = (a[1], b[1], c[1])
        placement = cls(city, level)
        values, stars = placement.values, placement.stars
        ring_offsets = RING_CYCLE[kind]
        ring_hexes = []
        empty, bit = 0, 1  # bit j of empty: ring cell j is empty
        for offset in ring_offsets:
            hex_ = get(y + offset)
            ring_hexes.append(hex_)
            if hex_ is None:
                empty |= bit
            bit <<= 1
        lake_bits = 0  # bit j: ring cell j is a lake after the placement (else outside)

        if covered:
            mode = _COVERING
            for cell, hex_ in zip(cells, below, strict=True):
                code = hex_[1]
                if code == QUARRY:
                    placement.quarries += 1
                elif IS_PLAZA[code]:
                    stars[COLOR_INDEX_OF[code]] -= hex_[2]
                elif code != HOUSE:
                    values[COLOR_INDEX_OF[code]] -= city.district_value[cell]
            if empty and city.lakes:
                lake_bits = _bits_in(y, ring_offsets, empty, city.lakes)
        elif cells[0] in city.lakes:
            # Filling part of a lake: the rest of it stays enclosed, the outside unchanged.
            mode = _IN_LAKE
            lake_bits = empty
        elif (empty & ~((empty << 1 | empty >> 8) & _ALL_RING)).bit_count() < 2:
            # One run of empty ring cells: no new lake (see above `_OUTSIDE_RING`).
            mode = _OUTSIDE_RING
        else:
            mode = _LAKE_MADE
            lake_bits = placement.close_lakes(y, kind, cells, empty)

        # The ring: its districts, and what the triangle's cells will have around them.
        group_of: Mapping[int, int] = city.house_group
        if HOUSE in covered:
            group_of = placement.regroup_houses(cells)
        market_base = values[MARKET_I]
        market_value = 0
        touching = RING_TOUCHES[kind]
        role_of = _RING_ROLE[mode]
        for j, hex_ in enumerate(ring_hexes):
            if hex_ is None:
                continue
            role = role_of[hex_[1]]
            if not role:
                continue
            if role == _HOUSE_NEAR:
                if not placement.house_near:
                    placement.house_near = ([], [], [])
                group = group_of[y + ring_offsets[j]]
                for i in touching[j]:
                    placement.house_near[i].append(group)
            elif role == _MARKET_NEAR:
                cell = y + ring_offsets[j]
                touches = touching[j]
                for i in touches:
                    placement.markets_near |= 1 << i
                markets, plazas = city.market_near[cell]
                for i in touches if covered else ():
                    markets -= covered[i] == MARKET
                    plazas -= covered[i] == MARKET_PLAZA
                market_base -= city.district_value[cell]
                market_value += city.market_worth(hex_[0], markets, plazas)
                placement.ring_markets.append((hex_[0], markets > 0, plazas > 0, touches))
                if not markets and not plazas and city.double_markets:
                    placement.plaza_sensitive = True
            elif role == _MARKET_PLAZA_NEAR:
                for i in touching[j]:
                    placement.market_plazas_near |= 1 << i
            else:
                # The triangle's cells were empty neighbours (outside, or lake) and are no more.
                cell = y + ring_offsets[j]
                count = city.count[cell] - len(touching[j])
                worth = city.district_worth(hex_[1], hex_[0], count)
                values[COLOR_INDEX_OF[hex_[1]]] += worth - city.district_value[cell]
        placement.market_base = market_base
        values[MARKET_I] = market_base + market_value
        if placement.groups is not city.groups:
            values[HOUSE_I] = placement.house_value(0)

        # What new barracks, temples and gardens would be worth on each cell.
        outside_bits = empty & ~lake_bits
        barracks = city.barracks_factor
        temple = level * (2 if city.double_temples and level >= 2 else 1)
        garden = level * (2 if city.double_gardens else 1)
        m0, m1, m2 = CELL_MASK[kind]
        placement.worth = (
            (
                0,
                0,
                level * barracks[(outside_bits & m0).bit_count()],
                0 if empty & m0 else temple,
                garden if lake_bits & m0 else level,
            ),
            (
                0,
                0,
                level * barracks[(outside_bits & m1).bit_count()],
                0 if empty & m1 else temple,
                garden if lake_bits & m1 else level,
            ),
            (
                0,
                0,
                level * barracks[(outside_bits & m2).bit_count()],
                0 if empty & m2 else temple,
                garden if lake_bits & m2 else level,
            ),
        )
        h, m, b_, t, g = values
        sh, sm, sb, st, sg = stars
        placement.base = h * sh + m * sm + b_ * sb + t * st + g * sg
        return placement

    def close_lakes(self, y: int, kind: int, cells: tuple[int, int, int], empty: int) -> int:
        """For a level-1 tile in the outside with two runs of empty ring cells or more: find
        the lakes it closes, rescore the barracks, temples and gardens that see a change and
        return the ring cells that are lakes now."""
        city, top, values = self.city, self.city.top, self.values
        ring = [y + offset for offset in RING_CYCLE[kind]]
        starts = empty & ~((empty << 1 | empty >> 8) & _ALL_RING)
        enclosed = city.new_lakes(cells, [ring[j] for j in range(9) if starts >> j & 1])
        lakes = city.lakes | enclosed
        rechecked = set(ring)
        for cell in enclosed:
            rechecked.update(cell + step for step in STEP)
        for cell in rechecked:
            hex_ = top.get(cell)
            if hex_ is not None and hex_[1] in (BARRACKS, TEMPLE, GARDEN):
                count = city.recount(cell, hex_[1], cells, lakes)
                worth = city.district_worth(hex_[1], hex_[0], count)
                values[COLOR_INDEX_OF[hex_[1]]] += worth - city.district_value[cell]
        return _bits_in(y, RING_CYCLE[kind], empty, enclosed)

    def regroup_houses(self, cells: tuple[int, int, int]) -> dict[int, int]:
        """Split the house groups the tile covers; the new group index of each house."""
        city = self.city
        hit = {city.house_group[cell] for cell in cells if cell in city.house_group}
        local: dict[int, int] = {}
        groups = list(city.groups)
        for cell, index in city.house_group.items():
            if index in hit and cell not in local and cell not in cells:
                groups.append(city.grow_group(cell, len(groups), local, cells))
        kept = [g for g in range(len(groups)) if g not in hit]
        self.groups = groups
        self.group_order = sorted(kept, key=groups.__getitem__, reverse=True)
        return {**city.house_group, **local}

    def house_value(self, mask: int) -> int:
        """The house colour's value with new houses on the cells in `mask` (bit i: cell i):
        the new houses and the groups they touch make one group, which is compared with
        the largest of the other groups."""
        value = self.house_values.get(mask)
        if value is not None:
            return value
        groups, order = self.groups, self.group_order
        if mask:
            new = mask.bit_count()
            merged: set[int] = set()
            if self.house_near:
                for i in range(3):
                    if mask >> i & 1:
                        merged.update(self.house_near[i])
            size, value = new, new * self.level
            for g in merged:
                size += groups[g][0]
                value += groups[g][1]
            best = (size, value)
            for g in order:
                if g not in merged:
                    if groups[g] > best:
                        best = groups[g]
                    break
        else:
            best = groups[order[0]] if order else (0, 0)
        value = self.house_values[mask] = self.city.house_worth(best[1])
        return value

    def market_value(self, codes: tuple[int, ...]) -> int:
        """The market colour's value with these codes on the triangle."""
        double = self.city.double_markets
        value = self.market_base
        for level, near_market, near_plaza, touches in self.ring_markets:
            if near_market or any(codes[i] == MARKET for i in touches):
                continue
            if double and (near_plaza or any(codes[i] == MARKET_PLAZA for i in touches)):
                value += 2 * level
            else:
                value += level
        if codes.count(MARKET) == 1:  # two new markets would be neighbours: neither scores
            i = codes.index(MARKET)
            if not self.markets_near >> i & 1:
                if double and (self.market_plazas_near >> i & 1 or MARKET_PLAZA in codes):
                    value += 2 * self.level
                else:
                    value += self.level
        return value

    def scores(self, tiles: Sequence[TileCodes], offset: int = 0) -> list[int]:
        """The score without stones, plus `offset`, after each of these tiles (see
        `tile_codes`).

        With neutral hexes the score is `base`; a plaza adds its stars times its colour's
        value, and each colour whose value the tile changes adds that change times the
        colour's stars (the plaza's included)."""
        values, worth, base, house_values = self.values, self.worth, self.base, self.house_values
        scores = []
        for codes, plazas, districts, houses, markets, market_plazas in tiles:
            score = base + offset
            stars = self.stars
            if plazas:
                stars = stars.copy()
                for colour, count in plazas:
                    stars[colour] += count
                    score += count * values[colour]
            for i, colour in districts:
                score += worth[i][colour] * stars[colour]
            if houses:
                value = house_values.get(houses)
                if value is None:
                    value = self.house_value(houses)
                score += (value - values[HOUSE_I]) * stars[HOUSE_I]
            if markets or (market_plazas and self.plaza_sensitive):
                score += (self.market_value(codes) - values[MARKET_I]) * stars[MARKET_I]
            scores.append(score)
        return scores


TileCodes = tuple[
    tuple[int, ...], tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], int, bool, bool
]
"""A tile's hex codes in a triangle's cell order, sorted out for `Placement.scores`:
(codes, (colour, stars) of each plaza, (cell, colour) of each barracks, temple and garden,
houses as bit i for cell i, whether there is a market, whether there is a market plaza)."""


def tile_codes(codes: tuple[int, ...]) -> TileCodes:
    return (
        codes,
        tuple((COLOR_INDEX_OF[code], STARS_OF_CODE[code]) for code in codes if IS_PLAZA[code]),
        tuple(
            (i, COLOR_INDEX_OF[code])
            for i, code in enumerate(codes)
            if code in (BARRACKS, TEMPLE, GARDEN)
        ),
        sum(1 << i for i, code in enumerate(codes) if code == HOUSE),
        MARKET in codes,
        MARKET_PLAZA in codes,
    )


def _bits_in(y: int, ring_offsets: Sequence[int], candidates: int, cells: Collection[int]) -> int:
    """The bits j of `candidates` whose ring cell (y + ring_offsets[j]) is among `cells`."""
    bits = 0
    for j, offset in enumerate(ring_offsets):
        if candidates >> j & 1 and y + offset in cells:
            bits |= 1 << j
    return bits


# --- the gains of a turn -------------------------------------------------------------------


def fast_gains(observation: dict[str, Any], legal_actions: Sequence[dict[str, int]]) -> list[int]:
    """The gain of every legal action, equal to `greedy.naive_gains` but much faster.

    A `LegalActions` is walked as the product it is; any other sequence of actions is
    taken one by one, sharing the work per triangle and per tile all the same."""
    me = observation["player"]
    variants = [name for name in VARIANTS if observation["options"].get(name)]
    stones = observation["stones"][me]
    surface = surface_from_json(observation["cities"][me]["hexes"])
    city = CityGains(surface, variants)
    site_codes = [
        tuple(hex_code(h["kind"], h.get("color")) for h in entry["hexes"])
        for entry in observation["site"]
    ]
    if isinstance(legal_actions, LegalActions):
        return _product_gains(city, surface, stones, variants, site_codes, legal_actions)
    before = city.score
    tiles: dict[tuple[int, ...], TileCodes] = {}
    scores: dict[tuple[int, tuple[int, ...]], int] = {}
    gains = []
    for action in legal_actions:
        anchor = encode(action["q"], action["r"])
        rotation = action["rotation"]
        position = action["tile"]
        tile = site_codes[position]
        triangle = triangle_of(anchor, rotation)
        placement = city.placement(triangle)
        if placement is None:
            gains.append(_rescored_gain(surface, stones, variants, action, tile))
            continue
        y, kind = divmod(triangle, 2)
        cells = [anchor, anchor + STEP[rotation], anchor + STEP[(rotation + 1) % 6]]
        codes = tuple(tile[cells.index(y + offset)] for offset in TRIANGLE_CELLS[kind])
        score = scores.get((triangle, codes))
        if score is None:
            if codes not in tiles:
                tiles[codes] = tile_codes(codes)
            score = scores[triangle, codes] = placement.scores([tiles[codes]])[0]
        gains.append(score - before + placement.quarries - position)
    return gains


def _product_gains(
    city: CityGains,
    surface: Surface,
    stones: int,
    variants: Collection[str],
    site_codes: Sequence[tuple[int, ...]],
    legal: LegalActions,
) -> list[int]:
    """Gains in the order of `LegalActions`: by position, triangle, then the three actions."""
    distinct: dict[tuple[int, ...], int] = {}
    picks = []
    for position in legal.tiles:
        tile = site_codes[position]
        pick = [
            distinct.setdefault((tile[a], tile[b], tile[c]), len(distinct))
            for a, b, c in CODE_ORDER
        ]
        picks.append((position, *pick))
    tiles = [tile_codes(codes) for codes in distinct]
    before = city.score
    rows: list[list[int] | None] = []
    for triangle in legal.triangles:
        placement = city.placement(triangle)
        if placement is None:
            rows.append(None)
        else:
            rows.append(placement.scores(tiles, placement.quarries - before))
    gains: list[int] = []
    for position, i, j, k in picks:
        for triangle, row in zip(legal.triangles, rows, strict=True):
            if row is not None:
                gains += (row[i] - position, row[j] - position, row[k] - position)
                continue
            for which in range(3):
                q, r, rotation = placement_of(triangle, which)
                action = {"tile": position, "q": q, "r": r, "rotation": rotation}
                tile = site_codes[position]
                gains.append(_rescored_gain(surface, stones, variants, action, tile))
    return gains


def _rescored_gain(
    surface: Surface,
    stones: int,
    variants: Collection[str],
    action: dict[str, int],
    tile: Sequence[int],
) -> int:
    """The gain of an action unlike any legal one, by rescoring the city as the oracle does."""
    anchor = encode(action["q"], action["r"])
    rotation = action["rotation"]
    cells = (anchor, anchor + STEP[rotation], anchor + STEP[(rotation + 1) % 6])
    below = surface.get(anchor)
    level = 1 if below is None else below[0] + 1
    after = dict(surface)
    quarries = 0
    for cell, code in zip(cells, tile, strict=True):
        old = surface.get(cell)
        if old is not None and old[1] == QUARRY:
            quarries += 1
        after[cell] = (level, code, STARS_OF_CODE[code])
    after_total = score_surface(after, stones - action["tile"] + quarries, variants).total
    return after_total - score_surface(surface, stones, variants).total
