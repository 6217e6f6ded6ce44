"""One player's city: the visible hex on each occupied cell, and placing a tile on it.

A city starts as the starting tile: a house plaza on (0, 0) with three quarries around
it. A tile covers a triangle of three cells (`geometry`), on level 1 where they are empty,
else one level above the three hexes it covers; each quarry it covers gives its owner a
stone back. Only the top hex of each cell counts from then on, for scoring and for what
may be placed next.

What the fast paths keep of a city (its legal triangles, its running score, its
observation's text) is one object, `kept` (`fast.city_cache`), told of each placement;
the city itself holds its facts only.
"""

from __future__ import annotations

import functools

from engine.akropolis import native
from engine.akropolis.components import PLAZA, QUARRY, STARS_OF_CODE
from engine.akropolis.fast.city_cache import PLACEMENT_TEXTS, CityCache
from engine.akropolis.fast.running_score import RunningScore
from engine.akropolis.geometry import STEP, is_legal
from engine.akropolis.scoring import ColorValues
from engine.hexgrid import encode

Hex = tuple[int, int, int]
"""The visible hex on a cell: (level, hex code, plaza stars or 0)."""

STARTING_TILE_UID = 0


class City:
    __slots__ = ("kept", "tile_at", "tiles", "top")

    def __init__(self) -> None:
        self.top: dict[int, Hex] = {}
        """The visible hex on each occupied cell."""
        self.tile_at: dict[int, int] = {}
        """Which tile (0 for the starting tile, else its id) shows on each cell."""
        self.tiles = 0
        """Tiles placed, the starting tile included."""
        self.kept = CityCache()
        """What the fast paths keep about the city (`fast.city_cache`)."""

    @classmethod
    def starting(cls) -> City:
        """A city of the starting tile alone, its legal triangles known (the same in
        every game, scanned once)."""
        start = _starting_city()
        city = cls()
        city.top = dict(start.top)
        city.tile_at = dict(start.tile_at)
        city.tiles = start.tiles
        city.kept = CityCache(list(start.legal_triangles()))
        return city

    @classmethod
    def bare_starting(cls) -> City:
        """A city of the starting tile alone, nothing kept."""
        city = cls()
        centre = encode(0, 0)
        plaza = PLAZA["house"]
        city.top[centre] = (1, plaza, STARS_OF_CODE[plaza])
        city.tile_at[centre] = STARTING_TILE_UID
        for step in STEP[0::2]:
            city.top[centre + step] = (1, QUARRY, 0)
            city.tile_at[centre + step] = STARTING_TILE_UID
        city.tiles = 1
        return city

    def copy(self) -> City:
        core = native.CORE
        if core is not None:
            twin: City = core.copy_city(self)  # the compiled core: this, in C
            return twin
        return self.copy_in_python()

    def copy_in_python(self) -> City:
        """`copy` in pure Python: the reference the compiled core is held to."""
        twin = City.__new__(City)
        twin.top = dict(self.top)
        twin.tile_at = dict(self.tile_at)
        twin.tiles = self.tiles
        twin.kept = self.kept.copy()
        return twin

    def is_legal(self, triangle: int) -> bool:
        """Whether a tile may cover this triangle (`geometry.is_legal`)."""
        return is_legal(self.top, self.tile_at, triangle)

    def place(
        self, triangle: int, cells: tuple[int, int, int], codes: tuple[int, ...], uid: int
    ) -> int:
        """Put a tile's hexes (`codes`, in `cells` order) on the cells of a legal triangle;
        returns the quarries it covers."""
        core = native.CORE
        if core is not None:
            # The compiled core (`engine.akropolis.native`): `place_in_python`, in C.
            quarries: int = core.place(self, triangle, cells, codes, uid)
            return quarries
        return self.place_in_python(triangle, cells, codes, uid)

    def place_in_python(
        self, triangle: int, cells: tuple[int, int, int], codes: tuple[int, ...], uid: int
    ) -> int:
        """`place` in pure Python: the reference the compiled core is held to, and the
        fallback where it is not built."""
        top = self.top
        first, second, third = cells
        below = top.get(first)
        covered: tuple[Hex, Hex, Hex] | None = None
        if below is None:
            # Level 1: a legal triangle's three cells are empty alike.
            level, quarries = 1, 0
        else:
            # Stacked: one level above the three hexes below, all on one level.
            covered = (below, top[second], top[third])
            level = below[0] + 1
            quarries = [hex_[1] for hex_ in covered].count(QUARRY)
        # Three cells, written out: this runs once per move tried by a lookahead.
        code = codes[0]
        top[first] = (level, code, STARS_OF_CODE[code])
        code = codes[1]
        top[second] = (level, code, STARS_OF_CODE[code])
        code = codes[2]
        top[third] = (level, code, STARS_OF_CODE[code])
        tile_at = self.tile_at
        tile_at[first] = tile_at[second] = tile_at[third] = uid
        self.tiles += 1
        # What the fast paths keep follows the placement (`fast.city_cache`; written out
        # here, not a method of the cache: a lookahead places a tile for every move it
        # tries).
        kept = self.kept
        kept.text = None
        if kept.hex_texts is not None:
            kept.changed_cells += cells
        if kept.legal is not None:
            if kept.legal_shared:
                kept.pending += ((triangle, level),)
            else:
                kept.update_legal(top, triangle, level, True)
        if kept.score is not None:
            kept.score.placed(top, triangle, cells, codes, covered, level)
        return quarries

    # --- answered from what the fast paths keep (`fast.city_cache`) ---------------------
    # A lookahead asks these after every move it tries: the common case is read here,
    # without a further call; the rest is the cache's.

    def can_cover(self, triangle: int) -> bool:
        """`is_legal`, read from the kept legal triangles when they are up to date."""
        kept = self.kept
        if kept.legal is None or kept.pending:
            return is_legal(self.top, self.tile_at, triangle)
        return triangle in kept.legal_set

    def legal_triangles(self) -> list[int]:
        """Sorted ids of the triangles a tile may cover now, as
        `geometry.scan_legal_triangles` finds them (do not mutate the list)."""
        kept = self.kept
        if kept.legal is None or kept.legal_shared:
            return kept.legal_triangles(self.top, self.tile_at)
        return kept.legal

    def legal_placements_text(self) -> str:
        """The placements of `legal_triangles()` as JSON text, without the brackets."""
        return self.kept.legal_placements_text(self.top, self.tile_at)

    def running_score(self, variants: tuple[str, ...]) -> RunningScore:
        """The city's score under these variants (`scoring.score_surface` of `top`),
        kept up to date from now on."""
        return self.kept.running_score(self.top, variants)

    def points(self, variants: tuple[str, ...]) -> int:
        """The points of the colours (stones not included) under these variants."""
        score = self.kept.score
        if score is None or score.variants != variants:
            return self.kept.points(self.top, variants)
        points = score.points
        if points is not None:
            return points
        core = native.CORE
        # The compiled core: `RunningScore.total` in C.
        return score.total(self.top) if core is None else core.total(score, self.top)

    def colour_values(self, variants: tuple[str, ...]) -> ColorValues:
        """The (values, stars) of the colours under these variants."""
        return self.kept.colour_values(self.top, variants)


@functools.cache
def _starting_city() -> City:
    """The starting city, read only: `City.starting` copies it."""
    return City.bare_starting()


# The core works on this module's classes: handed over once they exist (they import it).
native.hand_over_classes(City, CityCache, RunningScore, PLACEMENT_TEXTS)
