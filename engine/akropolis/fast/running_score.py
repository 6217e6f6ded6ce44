"""A city's score kept up to date placement by placement, equal to `scoring.score_surface`.

What a placement can change is local, but for two rules:

- the plazas' stars, and what each market, barracks, temple and garden is worth, depend on
  the hex itself and its six neighbours, so a placement rescores its three cells and the
  nine of its ring, and only those of the ring whose worth can move (see `placed`);
- the barracks and the gardens of the variant look at the lakes (the empty cells cut off
  from the outside). The lakes change only under a level-1 tile: one placed in a lake
  shrinks it; one placed in the outside may close new lakes, which `lakes.lakes_closed_by`
  finds with work about their size, and then every barracks and garden is rescored;
- the largest group of houses: new houses can only join groups, so when a tile adds
  houses and covers none, the groups around the new ones are flooded and compared with
  the largest so far; a tile that covers a house may split a group, and all are flooded
  again. Either is done when the score is next asked for.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from operator import mul

from engine.akropolis.components import (
    BARRACKS,
    COLOR_INDEX_OF,
    COLORS,
    GARDEN,
    HOUSE,
    IS_PLAZA,
    MARKET,
    MARKET_PLAZA,
    STARS_OF_CODE,
    TEMPLE,
)
from engine.akropolis.fast.lakes import bounds_of, lakes_closed_by, lakes_of
from engine.akropolis.fast.triangle_ring import RING_CYCLE, WHOLE_RING
from engine.akropolis.geometry import RING, STEP
from engine.akropolis.scoring import (
    BARRACKS_DOUBLED_EDGES,
    HOUSES_DOUBLED_FROM,
    TEMPLES_DOUBLED_FROM_LEVEL,
    CityScore,
    ColorScore,
    ColorValues,
)

Hex = tuple[int, int, int]
"""(level, hex code, plaza stars), as in a `scoring.Surface`."""

HOUSE_I = COLOR_INDEX_OF[HOUSE]

_RESCORED_IN_RING = (MARKET, BARRACKS, TEMPLE, GARDEN)
_WATCHING_LAKES = (BARRACKS, GARDEN)
_WATCHING_EMPTY = (TEMPLE, BARRACKS)
"""What these are worth depends on which of their neighbours are empty."""
_WATCHING = tuple(
    tuple(
        frozenset(
            _WATCHING_EMPTY + ((MARKET,) if markets_moved else ()) + ((GARDEN,) if lake else ())
        )
        for lake in (False, True)
    )
    for markets_moved in (False, True)
)
"""_WATCHING[markets moved][a garden's lake filled]: the ring hexes a level-1 tile's
placement rescores."""

TileTraits = tuple[tuple[tuple[int, int], ...], tuple[int, ...], bool, tuple[tuple[int, int], ...]]


@functools.cache
def tile_traits(codes: tuple[int, ...]) -> TileTraits:
    """What a tile of these hex codes brings to a score, the same wherever it lies: its
    plazas ((colour index, stars) each), where its houses are (indices into its cells),
    whether it holds a market or a market plaza (the ring's markets are rescored), and
    the indices and codes of its hexes whose worth is worked out where they lie."""
    return (
        tuple((COLOR_INDEX_OF[code], STARS_OF_CODE[code]) for code in codes if IS_PLAZA[code]),
        tuple(j for j, code in enumerate(codes) if code == HOUSE),
        MARKET in codes or MARKET_PLAZA in codes,
        tuple((j, code) for j, code in enumerate(codes) if code in _RESCORED_IN_RING),
    )


_RING_BITS = tuple(
    tuple((offset, 1 << j) for j, offset in enumerate(RING_CYCLE[kind])) for kind in (0, 1)
)
"""For each triangle type, (offset from y, bit) of its ring cells in cyclic order."""


class RunningScore:
    """The stars and values per colour of one city, updated by `placed`."""

    __slots__ = (
        "double",
        "house_best",
        "house_value",
        "lakes",
        "new_houses",
        "points",
        "stars",
        "values",
        "variants",
        "worth",
    )

    def __init__(self, variants: tuple[str, ...]) -> None:
        self.variants = variants
        self.double = tuple(
            name in variants for name in ("houses", "markets", "barracks", "temples", "gardens")
        )
        self.stars = [0] * len(COLORS)
        self.values = [0] * len(COLORS)
        """The values of every colour but the houses (see `house_value`)."""
        self.worth: dict[int, int] = {}
        """What each market, barracks, temple and garden adds to its colour's value."""
        self.lakes: frozenset[int] | set[int] = frozenset()
        """The lakes: never changed in place, only replaced, so that a copy shares them."""
        self.house_value: int | None = None
        """The largest house group's value (doubled as the variant says); None: not known."""
        self.house_best: tuple[int, int] | None = None
        """(size, value) of the largest house group before `new_houses`; None: not known."""
        self.new_houses: tuple[int, ...] = ()
        """Houses laid since `house_best`, none covered (a tuple, shared by a copy)."""
        self.points: int | None = None
        """`total` as last worked out; None: changed since."""

    @classmethod
    def of(cls, top: Mapping[int, Hex], variants: tuple[str, ...]) -> RunningScore:
        """Score a city from scratch."""
        running = cls(variants)
        running.lakes = lakes_of(top)
        stars, values, worth = running.stars, running.values, running.worth
        worth_of, houses = running.worth_of, []
        for cell, (level, code, hex_stars) in top.items():
            if IS_PLAZA[code]:
                stars[COLOR_INDEX_OF[code]] += hex_stars
            elif code == HOUSE:
                houses.append(cell)
            elif code in _RESCORED_IN_RING:
                value = worth[cell] = worth_of(top, cell, level, code)
                values[COLOR_INDEX_OF[code]] += value
        # Every house is new to a largest group of none: `houses` floods them all.
        running.new_houses = tuple(houses)
        running.house_best = (0, 0)
        return running

    def copy(self) -> RunningScore:
        """A copy, to be played on."""
        twin = RunningScore.__new__(RunningScore)
        twin.variants = self.variants
        twin.double = self.double
        twin.stars = list(self.stars)
        twin.values = list(self.values)
        twin.worth = dict(self.worth)
        twin.lakes = self.lakes
        twin.house_value = self.house_value
        twin.house_best = self.house_best
        twin.new_houses = self.new_houses
        twin.points = self.points
        return twin

    def total(self, top: Mapping[int, Hex]) -> int:
        """The points of the colours (the stones not included), kept until the next
        placement: a lookahead asks again for the cities a move leaves unchanged."""
        points = self.points
        if points is None:
            stars = self.stars
            # `values` holds no houses' value: it is `houses`.
            points = self.points = self.houses(top) * stars[HOUSE_I] + sum(
                map(mul, self.values, stars)
            )
        return points

    def city_score(self, top: Mapping[int, Hex], stones: int) -> CityScore:
        values, stars = self.colour_values(top)
        return CityScore(
            stones=stones,
            colors={name: ColorScore(values[i], stars[i]) for i, name in enumerate(COLORS)},
        )

    def colour_values(self, top: Mapping[int, Hex]) -> ColorValues:
        """(values, stars) of the colours, as `scoring.score_surface` gives them."""
        values = list(self.values)
        values[HOUSE_I] = self.houses(top)
        return values, list(self.stars)

    def houses(self, top: Mapping[int, Hex]) -> int:
        value = self.house_value
        if value is None:
            best = self.house_best
            if best is None:
                best = largest_house_group(top, [c for c, h in top.items() if h[1] == HOUSE])
            elif self.new_houses:
                best = max(best, largest_house_group(top, self.new_houses))
            self.house_best = best
            self.new_houses = ()
            value = best[1]
            if self.double[0] and value >= HOUSES_DOUBLED_FROM:
                value *= 2
            self.house_value = value
        return value

    # -- updates --

    def placed(
        self,
        top: Mapping[int, Hex],
        triangle: int,
        cells: tuple[int, int, int],
        codes: tuple[int, ...],
        covered: tuple[Hex, Hex, Hex] | None,
        level: int,
    ) -> None:
        """Follow a tile of these hex codes just placed (`top` already shows it) on
        `cells`, which showed `covered` before (None on level 1); `level` is the new
        tile's."""
        self.points = None
        stars, worth, values = self.stars, self.worth, self.values
        plazas, houses, markets_moved, rescored = tile_traits(codes)
        houses_covered = False
        if covered is not None:
            for cell, (_, code, old_stars) in zip(cells, covered, strict=True):
                if IS_PLAZA[code]:
                    stars[COLOR_INDEX_OF[code]] -= old_stars
                    markets_moved = markets_moved or code == MARKET_PLAZA
                elif code == HOUSE:
                    houses_covered = True
                elif cell in worth:
                    values[COLOR_INDEX_OF[code]] -= worth.pop(cell)
                    markets_moved = markets_moved or code == MARKET
        for colour, plaza_stars in plazas:
            stars[colour] += plaza_stars
        if houses or houses_covered:
            self.house_value = None
            if houses_covered:
                self.house_best = None
            for j in houses:
                self.new_houses += (cells[j],)
        y, kind = triangle >> 1, triangle & 1
        lakes_closed = False
        if level == 1:
            # The ring's hexes are read once: the empty ones for the lakes, the others
            # for rescoring after the lakes are followed (barracks read them). A ring
            # market changes only by a market or market plaza of the tile, a garden only
            # by a lake it touches (filled here; closing lakes rescores them all below).
            filled_lake = cells[0] in self.lakes
            gardens_watch = filled_lake and self.double[4]
            watching = _WATCHING[markets_moved][gardens_watch]
            empty = 0
            again: list[tuple[int, Hex]] = []
            for offset, bit in _RING_BITS[kind]:
                cell = y + offset
                hex_ = top.get(cell)
                if hex_ is None:
                    empty |= bit
                elif hex_[1] in watching:
                    again.append((cell, hex_))
            if filled_lake:
                self.lakes = self.lakes.difference(cells)
            else:
                # Two runs of empty cells around the tile or more (one tile in nine or
                # so) may close lakes: the first cell of each run is a set bit whose
                # cyclic predecessor is clear (`triangle_ring.run_starts`).
                starts = empty & ~((empty << 1 | empty >> 8) & WHOLE_RING)
                if starts & (starts - 1):
                    lakes_closed = self.close_lakes(top, triangle, cells, starts)
            for cell, (ring_level, code, _) in again:
                self.rescore(top, cell, ring_level, code)
        elif markets_moved:
            for offset in RING[kind]:
                cell = y + offset
                hex_ = top.get(cell)
                if hex_ is not None and hex_[1] == MARKET:
                    self.rescore(top, cell, hex_[0], MARKET)
        for j, code in rescored:
            self.rescore(top, cells[j], level, code)
        if lakes_closed:
            for cell in list(worth):
                _, code, _ = top[cell]
                if code in _WATCHING_LAKES:
                    self.rescore(top, cell, top[cell][0], code)

    def close_lakes(
        self, top: Mapping[int, Hex], triangle: int, cells: tuple[int, int, int], starts: int
    ) -> bool:
        """Add the lakes a level-1 tile placed in the outside on `cells` closed, `starts`
        holding the first ring cell of each run of empty cells around it (bits of
        `RING_CYCLE` order, two at least); whether any did. The city's bounds are found
        here, not kept up to date: few tiles need them."""
        y = triangle >> 1
        ring = RING_CYCLE[triangle & 1]
        enclosed = lakes_closed_by(
            top, bounds_of(top), cells, [y + ring[j] for j in range(9) if starts >> j & 1]
        )
        if enclosed:
            self.lakes = self.lakes | enclosed
        return bool(enclosed)

    def rescore(self, top: Mapping[int, Hex], cell: int, level: int, code: int) -> None:
        """Work out again what the market, barracks, temple or garden on `cell` is worth."""
        worth = self.worth
        colour = COLOR_INDEX_OF[code]
        new = self.worth_of(top, cell, level, code)
        self.values[colour] += new - worth.get(cell, 0)
        worth[cell] = new

    def worth_of(self, top: Mapping[int, Hex], cell: int, level: int, code: int) -> int:
        if code == MARKET:
            by_plaza = False
            for step in STEP:
                near = top.get(cell + step)
                if near is not None:
                    if near[1] == MARKET:
                        return 0
                    by_plaza = by_plaza or near[1] == MARKET_PLAZA
            return 2 * level if by_plaza and self.double[1] else level
        if code == TEMPLE:
            for step in STEP:
                if cell + step not in top:
                    return 0
            return 2 * level if self.double[3] and level >= TEMPLES_DOUBLED_FROM_LEVEL else level
        lakes = self.lakes
        if code == BARRACKS:
            edges = 0
            for step in STEP:
                around = cell + step
                if around not in top and around not in lakes:
                    edges += 1
            if not edges:
                return 0
            return 2 * level if self.double[2] and edges in BARRACKS_DOUBLED_EDGES else level
        if self.double[4]:
            for step in STEP:
                if cell + step in lakes:
                    return 2 * level
        return level


def largest_house_group(top: Mapping[int, Hex], starts: Sequence[int]) -> tuple[int, int]:
    """(size, value) of the largest of the groups of edge-connected houses that hold one
    of `starts` ((0, 0) if none), the largest by size, then value, as the scoring has it."""
    best_size = best_value = 0
    seen: set[int] = set()
    for start in starts:
        if start in seen:
            continue
        seen.add(start)
        size = value = 0
        stack = [start]
        while stack:
            cell = stack.pop()
            size += 1
            value += top[cell][0]
            for step in STEP:
                near = cell + step
                if near not in seen:
                    hex_ = top.get(near)
                    if hex_ is not None and hex_[1] == HOUSE:
                        seen.add(near)
                        stack.append(near)
        if size > best_size or (size == best_size and value > best_value):
            best_size, best_value = size, value
    return best_size, best_value
