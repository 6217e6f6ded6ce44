"""One city at the start of a turn, read once so that any placement's score is quick.
Part of `gains.fast_gains`, which must equal `greedy.naive_gains`.

What it keeps: the visible hexes, stars and values per colour, the lakes, what each
district is worth and the count its worth depends on, and the groups of houses. The
districts' worth follows `scoring.score_surface` exactly.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from engine.akropolis.components import (
    BARRACKS,
    COLOR_INDEX_OF,
    HOUSE,
    IS_PLAZA,
    MARKET,
    MARKET_PLAZA,
    QUARRY,
    TEMPLE,
)
from engine.akropolis.fast.lakes import bounds_of, lakes_closed_by, lakes_of
from engine.akropolis.geometry import STEP
from engine.akropolis.scoring import (
    BARRACKS_DOUBLED_EDGES,
    HOUSES_DOUBLED_FROM,
    TEMPLES_DOUBLED_FROM_LEVEL,
)

Surface = dict[int, tuple[int, int, int]]
"""Visible hexes by cell code: (level, hex code, plaza stars)."""

HOUSE_I, MARKET_I = COLOR_INDEX_OF[HOUSE], COLOR_INDEX_OF[MARKET]
"""The house and market colours' indices in `values` and `stars`."""

_NO_HEX = (0, -1, 0)
"""Stands for an empty cell where a hex code is looked at (-1 is no hex code)."""


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
            0 if not edges else 2 if self.double_barracks and edges in BARRACKS_DOUBLED_EDGES else 1
            for edges in range(7)
        )
        """A barracks' worth per level by its number of empty neighbours in the outside."""
        self.bounds = bounds_of(surface)
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
        self.house_group: dict[int, int] = {}
        """The group index of each visible house."""
        self.groups: list[tuple[int, int]] = []
        """(size, value) of each group of edge-connected houses."""
        self.value_plazas_and_districts()
        self.group_houses()
        self.group_order = sorted(
            range(len(self.groups)), key=self.groups.__getitem__, reverse=True
        )
        """Group indices, largest first (by size, then value, as the scoring has it)."""
        best = self.groups[self.group_order[0]][1] if self.groups else 0
        self.values[HOUSE_I] = self.house_worth(best)
        self.score = sum(v * s for v, s in zip(self.values, self.stars, strict=True))
        """The score without the stones."""

    def value_plazas_and_districts(self) -> None:
        """Count the stars of the plazas and value every district but the houses."""
        top = self.top
        for cell, (level, code, stars) in top.items():
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
                count = self.count[cell] = self.recount(cell, code, (), self.lakes)
                value = self.district_worth(code, level, count)
            self.district_value[cell] = value
            self.values[COLOR_INDEX_OF[code]] += value

    def group_houses(self) -> None:
        for cell, (_, code, _) in self.top.items():
            if code == HOUSE and cell not in self.house_group:
                self.groups.append(self.grow_group(cell, len(self.groups), self.house_group, ()))

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
            return 2 * level if self.double_barracks and count in BARRACKS_DOUBLED_EDGES else level
        if code == TEMPLE:
            if count:
                return 0
            return (
                2 * level if self.double_temples and level >= TEMPLES_DOUBLED_FROM_LEVEL else level
            )
        return 2 * level if count and self.double_gardens else level

    def house_worth(self, value: int) -> int:
        return 2 * value if self.double_houses and value >= HOUSES_DOUBLED_FROM else value

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
        `starts` holds one empty ring cell of each run around it (see `lakes_closed_by`)."""
        return lakes_closed_by(self.top, self.bounds, filled, starts)
