"""A tile on one triangle: the city's score after it, as a function of the tile's hexes.
Part of `gains.fast_gains`, which must equal `greedy.naive_gains`.

`Placement.of` works out, once per triangle and whatever tile goes there, the level, the
hexes and quarries it covers and everything that depends only on which cells are
occupied: temples around it becoming surrounded, barracks around it losing empty
neighbours, lakes appearing or shrinking, gardens losing or gaining a lake, and what a
new barracks, temple or garden on each of its cells would be worth. `Placement.scores`
then adds, per tile (as `TileCodes`), the plazas' stars, the new districts, markets next
to markets or market plazas, and the largest house group.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import mul

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
)
from engine.akropolis.fast.city_gains import HOUSE_I, MARKET_I, CityGains
from engine.akropolis.fast.triangle_ring import (
    CELL_MASK,
    RING_CYCLE,
    RING_TOUCHES,
    ring_bits_in,
    run_starts,
)
from engine.akropolis.geometry import STEP, TRIANGLE_CELLS
from engine.akropolis.scoring import TEMPLES_DOUBLED_FROM_LEVEL

Hex = tuple[int, int, int]
"""(level, hex code, plaza stars), as in a `Surface`."""

TileCodes = tuple[
    tuple[int, ...], tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], int, bool, bool
]
"""A tile's hex codes in a triangle's cell order, sorted out once (several site tiles
and rotations often give the same) for `Placement.scores`:
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

OUTSIDE_RING, IN_LAKE, COVERING, LAKE_MADE = range(4)
"""The ways a placement changes the barracks, temples and gardens around it: a level-1
tile in the outside (barracks and temples around lose empty neighbours), a level-1 tile
in a lake (temples lose holes, gardens their lake), a tile on level 2 or more (nothing
changes) and a level-1 tile that closes new lakes (everything is checked again)."""

HOUSE_NEAR, MARKET_NEAR, MARKET_PLAZA_NEAR, RECOUNTED = range(1, 5)


def _ring_roles(mode: int) -> tuple[int, ...]:
    recounted = {
        OUTSIDE_RING: (BARRACKS, TEMPLE),
        IN_LAKE: (TEMPLE, GARDEN),
        COVERING: (),
        LAKE_MADE: (),  # rescored by `Placement.close_lakes`
    }[mode]
    roles = [0] * HEX_CODES
    roles[HOUSE], roles[MARKET], roles[MARKET_PLAZA] = HOUSE_NEAR, MARKET_NEAR, MARKET_PLAZA_NEAR
    for code in recounted:
        roles[code] = RECOUNTED
    return tuple(roles)


RING_ROLE: tuple[tuple[int, ...], ...] = tuple(_ring_roles(mode) for mode in range(4))
"""For each mode and hex code: what a hex of the ring does for `Placement.read_ring` (0:
nothing; else a house, a market or a market plaza next to the tile, or a barracks, temple
or garden whose count the tile changes)."""


def flat_ground(top: Mapping[int, Hex], cells: tuple[int, int, int]) -> tuple[Hex, ...] | None:
    """The three hexes a tile on these cells would cover (none on level 1); None if the
    triangle is not flat (neither three empty cells nor three hexes on one level)."""
    first, second, third = top.get(cells[0]), top.get(cells[1]), top.get(cells[2])
    if first is None:
        return None if second is not None or third is not None else ()
    if second is None or third is None or not first[0] == second[0] == third[0]:
        return None
    return (first, second, third)


def ring_around(top: Mapping[int, Hex], y: int, kind: int) -> tuple[list[Hex | None], int]:
    """The hexes of a triangle's ring in cyclic order (None where empty), and the mask of
    the empty ring cells."""
    ring_hexes = []
    empty, bit = 0, 1
    for offset in RING_CYCLE[kind]:
        hex_ = top.get(y + offset)
        ring_hexes.append(hex_)
        if hex_ is None:
            empty |= bit
        bit <<= 1
    return ring_hexes, empty


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
        """What a tile on this triangle would do; None if the triangle is not flat, as no
        legal one is."""
        y, kind = triangle >> 1, triangle & 1
        first, second, third = TRIANGLE_CELLS[kind]
        cells = (y + first, y + second, y + third)
        below = flat_ground(city.top, cells)
        if below is None:
            return None
        placement = cls(city, below[0][0] + 1 if below else 1)
        if below:
            placement.uncover(cells, below)
        ring_hexes, empty = ring_around(city.top, y, kind)
        mode, lake_bits = placement.lake_change(y, kind, cells, empty)
        placement.read_ring(y, kind, cells, ring_hexes, tuple(hex_[1] for hex_ in below), mode)
        placement.worth = placement.new_district_worth(kind, empty, lake_bits)
        placement.base = sum(map(mul, placement.values, placement.stars))
        return placement

    def uncover(self, cells: tuple[int, int, int], below: Sequence[Hex]) -> None:
        """Take away what the covered hexes gave; count the quarries (a stone each)."""
        for cell, (_, code, stars) in zip(cells, below, strict=True):
            if code == QUARRY:
                self.quarries += 1
            elif IS_PLAZA[code]:
                self.stars[COLOR_INDEX_OF[code]] -= stars
            elif code != HOUSE:
                self.values[COLOR_INDEX_OF[code]] -= self.city.district_value[cell]

    def lake_change(
        self, y: int, kind: int, cells: tuple[int, int, int], empty: int
    ) -> tuple[int, int]:
        """How the tile changes the lakes (the mode, see `OUTSIDE_RING`), and the mask of
        the ring cells that are lakes after it (the other empty ones are outside)."""
        city = self.city
        if self.level > 1:
            lake_bits = ring_bits_in(y, kind, empty, city.lakes) if empty and city.lakes else 0
            return COVERING, lake_bits
        if cells[0] in city.lakes:
            # Filling part of a lake: the rest of it stays enclosed, the outside unchanged.
            return IN_LAKE, empty
        if run_starts(empty).bit_count() < 2:
            return OUTSIDE_RING, 0
        return LAKE_MADE, self.close_lakes(y, kind, cells, empty)

    def close_lakes(self, y: int, kind: int, cells: tuple[int, int, int], empty: int) -> int:
        """For a level-1 tile in the outside with two runs of empty ring cells or more: find
        the lakes it closes, rescore the barracks, temples and gardens that see a change and
        return the ring cells that are lakes now."""
        city, top, values = self.city, self.city.top, self.values
        ring = [y + offset for offset in RING_CYCLE[kind]]
        starts = run_starts(empty)
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
        return ring_bits_in(y, kind, empty, enclosed)

    def read_ring(
        self,
        y: int,
        kind: int,
        cells: tuple[int, int, int],
        ring_hexes: Sequence[Hex | None],
        covered: tuple[int, ...],
        mode: int,
    ) -> None:
        """The districts around the triangle: the house groups and markets each of its
        cells will touch, and the barracks, temples and gardens whose count it changes."""
        city, values = self.city, self.values
        group_of: Mapping[int, int] = city.house_group
        if HOUSE in covered:
            group_of = self.regroup_houses(cells)
        ring_offsets = RING_CYCLE[kind]
        touching = RING_TOUCHES[kind]
        role_of = RING_ROLE[mode]
        market_base = values[MARKET_I]
        market_value = 0
        for j, hex_ in enumerate(ring_hexes):
            if hex_ is None:
                continue
            role = role_of[hex_[1]]
            if not role:
                continue
            if role == HOUSE_NEAR:
                if not self.house_near:
                    self.house_near = ([], [], [])
                group = group_of[y + ring_offsets[j]]
                for i in touching[j]:
                    self.house_near[i].append(group)
            elif role == MARKET_NEAR:
                cell = y + ring_offsets[j]
                market_base -= city.district_value[cell]
                market_value += self.note_market(cell, hex_[0], touching[j], covered)
            elif role == MARKET_PLAZA_NEAR:
                for i in touching[j]:
                    self.market_plazas_near |= 1 << i
            else:
                # The triangle's cells were empty neighbours (outside, or lake) and are no more.
                cell = y + ring_offsets[j]
                count = city.count[cell] - len(touching[j])
                worth = city.district_worth(hex_[1], hex_[0], count)
                values[COLOR_INDEX_OF[hex_[1]]] += worth - city.district_value[cell]
        self.market_base = market_base
        values[MARKET_I] = market_base + market_value
        if self.groups is not city.groups:
            values[HOUSE_I] = self.house_value(0)

    def note_market(
        self, cell: int, level: int, touches: tuple[int, ...], covered: tuple[int, ...]
    ) -> int:
        """Record a market of the ring next to the triangle cells `touches`; its worth with
        neutral hexes on the triangle."""
        city = self.city
        for i in touches:
            self.markets_near |= 1 << i
        markets, plazas = city.market_near[cell]
        for i in touches if covered else ():
            markets -= covered[i] == MARKET
            plazas -= covered[i] == MARKET_PLAZA
        self.ring_markets.append((level, markets > 0, plazas > 0, touches))
        if not markets and not plazas and city.double_markets:
            self.plaza_sensitive = True
        return city.market_worth(level, markets, plazas)

    def new_district_worth(
        self, kind: int, empty: int, lake_bits: int
    ) -> tuple[tuple[int, ...], ...]:
        """For each triangle cell: what a new district there is worth, by colour (a house
        or market counts through its group or neighbours instead: 0 here)."""
        city, level = self.city, self.level
        outside_bits = empty & ~lake_bits
        temple = level * (2 if city.double_temples and level >= TEMPLES_DOUBLED_FROM_LEVEL else 1)
        garden = level * (2 if city.double_gardens else 1)
        return tuple(
            (
                0,
                0,
                level * city.barracks_factor[(outside_bits & mask).bit_count()],
                0 if empty & mask else temple,
                garden if lake_bits & mask else level,
            )
            for mask in CELL_MASK[kind]
        )

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
