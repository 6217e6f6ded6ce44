"""One player's city: the visible hex on each occupied cell, where a tile may go, and
its score.

The legal triangles are cached as a sorted list and updated around each placement. Only
the triangles sharing a cell with the new tile can lose or gain their legality on a higher
level, and they need only the level of the cells they do not share (the tile's own cells
are one tile, so never all of theirs); a level-1 tile also makes the empty triangles of
its ring legal. `scan_legal_triangles` is the plain full scan, kept as the oracle for tests;
it runs once per process, for the starting city that every new city copies. Once the
compact legal actions are written for a bot, each legal triangle's placements text is
kept in a second list, changed at the same index as the first.

A copy shares the cached list with its original, and both put off their updates
(`_pending`) until the list is next asked for: a lookahead that only scores the move
it tries never pays for them. Replayed in order against the city as it is by then, the
updates give the same list (a triangle an update got wrong, by a cell a later tile
covered, contains a cell of that tile, so the later update checks it again). Only an
update made as the tile is placed, the list exact just before, may leave out the
triangles that could not have been legal then (`legal_tables.MAYBE_LEGAL_BEFORE`): a
replay knows the city only as it is later, and tries them all.

The score is kept the same way once asked for (`running_score`), so that reading it
after each placement costs no rescoring of the city.
"""

from __future__ import annotations

import functools
from bisect import bisect_left

from engine.akropolis.actions import PLACEMENT_TEXTS
from engine.akropolis.board_score import colour_values as board_colour_values
from engine.akropolis.components import PLAZA, QUARRY, STARS_OF_CODE
from engine.akropolis.geometry import RING, STEP, TRIANGLE_CELLS, TRIANGLES_OF_CELL
from engine.akropolis.legal_tables import (
    MAYBE_LEGAL_BEFORE,
    OUTER_NEEDED,
    OUTER_WHOLE,
    RING_BITS,
    RING_SECTORS,
    SPLIT_BY_LEVEL,
)
from engine.akropolis.running_score import RunningScore
from engine.akropolis.scoring import ColorValues
from engine.hexgrid import encode

Hex = tuple[int, int, int]
"""The visible hex on a cell: (level, hex code, plaza stars or 0)."""

STARTING_TILE_UID = 0


class City:
    __slots__ = (
        "_legal",
        "_legal_owned",
        "_legal_set",
        "_legal_texts",
        "_pending",
        "_score",
        "changed_cells",
        "encoded",
        "hex_texts",
        "tile_at",
        "tiles",
        "top",
    )

    def __init__(self) -> None:
        self.top: dict[int, Hex] = {}
        self.tile_at: dict[int, int] = {}
        """Which tile (0 for the starting tile, else its id) shows on each cell."""
        self.tiles = 0
        """Tiles placed, the starting tile included."""
        self._legal: list[int] | None = None
        self._legal_set: set[int] = set()
        self._legal_owned = True
        """Whether `_legal` and `_legal_set` are this city's alone (else shared with copies)."""
        self._legal_texts: list[str] | None = None
        """Each legal triangle's placements as JSON text, in `_legal`'s order: kept, as
        `_legal` is, once the compact legal actions are first written
        (`legal_placements_text`), so that writing them again is one join."""
        self._pending: tuple[tuple[int, int], ...] = ()
        """(triangle, level) of the placements not yet followed in the shared list (a
        tuple, shared by a copy as it is)."""
        self._score: RunningScore | None = None
        self.encoded: str | None = None
        """The JSON text of the visible hexes as the observation shows them, kept by
        `observation` until the city changes (shared with copies)."""
        self.hex_texts: tuple[list[int], list[str]] | None = None
        """The occupied cells, sorted, and each one's hex as JSON text, as of the
        placements in `changed_cells` ago: kept by `observation`, which updates them from
        those (shared with copies; never changed, only replaced)."""
        self.changed_cells: tuple[int, ...] = ()
        """The cells placed on since `hex_texts` (followed only while there are some; a
        tuple, shared by a copy as it is)."""

    @classmethod
    def starting(cls) -> City:
        """A city of the starting tile alone, its legal triangles known (the same in
        every game, scanned once)."""
        start = _starting_city()
        city = cls()
        city.top = dict(start.top)
        city.tile_at = dict(start.tile_at)
        city.tiles = start.tiles
        city._legal = list(start.legal_triangles())
        city._legal_set = set(start._legal_set)
        return city

    @classmethod
    def bare_starting(cls) -> City:
        """A city of the starting tile alone, nothing else known."""
        city = cls()
        centre = encode(0, 0)
        plaza = PLAZA["house"]
        city._set(centre, (1, plaza, STARS_OF_CODE[plaza]), STARTING_TILE_UID)
        for step in STEP[0::2]:
            city._set(centre + step, (1, QUARRY, 0), STARTING_TILE_UID)
        city.tiles = 1
        return city

    def copy(self) -> City:
        twin = City.__new__(City)
        twin.top = dict(self.top)
        twin.tile_at = dict(self.tile_at)
        twin.tiles = self.tiles
        twin.encoded = self.encoded
        twin.hex_texts = self.hex_texts
        twin.changed_cells = self.changed_cells
        twin._legal, twin._legal_set = self._legal, self._legal_set
        twin._legal_texts = self._legal_texts
        twin._pending = self._pending
        if self._legal is None:
            twin._legal_owned = True
        else:
            twin._legal_owned = self._legal_owned = False
        score = self._score
        twin._score = None if score is None else score.copy()
        return twin

    def _set(self, cell: int, hex_: Hex, tile_uid: int) -> None:
        self.top[cell] = hex_
        self.tile_at[cell] = tile_uid

    def is_legal(self, triangle: int) -> bool:
        """Whether a tile may cover this triangle (the rules' level-1 and level-up tests)."""
        y, kind = divmod(triangle, 2)
        oa, ob, oc = TRIANGLE_CELLS[kind]
        top = self.top
        a = top.get(y + oa)
        b = top.get(y + ob)
        c = top.get(y + oc)
        if a is None:
            if b is not None or c is not None:
                return False
            return any(y + offset in top for offset in RING[kind])
        if b is None or c is None or not a[0] == b[0] == c[0]:
            return False
        tile_at = self.tile_at
        return not tile_at[y + oa] == tile_at[y + ob] == tile_at[y + oc]

    def can_cover(self, triangle: int) -> bool:
        """`is_legal`, read from the cache when it is up to date."""
        if self._legal is not None and not self._pending:
            return triangle in self._legal_set
        return self.is_legal(triangle)

    def place(
        self, triangle: int, cells: tuple[int, int, int], codes: tuple[int, ...], uid: int
    ) -> int:
        """Put a tile's hexes (codes) on the cells of a legal triangle; returns quarries covered."""
        top = self.top
        first, second, third = cells
        below = top.get(first)
        covered: tuple[Hex, Hex, Hex] | None = None
        if below is None:
            # Level 1: a legal triangle's three cells are empty alike.
            level, quarries = 1, 0
        else:
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
        self.encoded = None
        if self.hex_texts is not None:
            self.changed_cells += cells
        if self._legal is not None:
            if self._legal_owned:
                self._update_legal(triangle, level, True)
            else:
                self._pending += ((triangle, level),)
        if self._score is not None:
            self._score.placed(top, triangle, cells, codes, covered, level)
        return quarries

    def running_score(self, variants: tuple[str, ...]) -> RunningScore:
        """The city's score under these variants, kept up to date from now on."""
        score = self._score
        if score is None or score.variants != variants:
            score = self._score = RunningScore.of(self.top, variants)
        return score

    def points(self, variants: tuple[str, ...]) -> int:
        """`running_score(variants).total(top)` in one call: a lookahead reads it after
        every move it tries."""
        score = self._score
        if score is None or score.variants != variants:
            score = self._score = RunningScore.of(self.top, variants)
        points = score.points
        return score.total(self.top) if points is None else points

    def colour_values(self, variants: tuple[str, ...]) -> ColorValues:
        """The (values, stars) of the colours: from the running score if the city keeps
        one under these variants (a lookahead read its score, so it costs nothing more),
        else worked out once on boards (`board_score`), without starting a running score
        that no placement will follow (the end of a random playout)."""
        score = self._score
        if score is not None and score.variants == variants:
            return score.colour_values(self.top)
        return board_colour_values(self.top, variants)

    def legal_triangles(self) -> list[int]:
        """Sorted ids of the triangles a tile may cover now (do not mutate the list)."""
        if self._legal is None:
            self._legal = scan_legal_triangles(self)
            self._legal_set = set(self._legal)
            self._legal_texts = None
            self._legal_owned = True
        elif not self._legal_owned:
            self._legal = list(self._legal)
            self._legal_set = set(self._legal_set)
            if self._legal_texts is not None:
                self._legal_texts = list(self._legal_texts)
            self._legal_owned = True
            for triangle, level in self._pending:
                self._update_legal(triangle, level, False)
            self._pending = ()
        return self._legal

    def legal_placements_text(self) -> str:
        """The placements of `legal_triangles()` as JSON text, without the brackets: the
        compact legal actions' list (see `actions.LegalActions.compact_text`)."""
        legal = self.legal_triangles()
        texts = self._legal_texts
        if texts is None:
            texts = self._legal_texts = [PLACEMENT_TEXTS[triangle] for triangle in legal]
        return ",".join(texts)

    def _update_legal(self, triangle: int, level: int, direct: bool) -> None:
        """Follow a tile placed on `triangle` at `level` in the legal list: `direct`
        when the list is exact for the city as it was just before (not a replay)."""
        top, legal, legal_set = self.top, self._legal, self._legal_set
        if legal is None:
            return
        y, kind = triangle >> 1, triangle & 1
        y2 = 2 * y
        # The nine ring cells, read once (`legal_tables`): the empty ones and those on
        # the new tile's level.
        empty = at_level = 0
        for offset, bit in RING_BITS[kind]:
            hex_ = top.get(y + offset)
            if hex_ is None:
                empty |= bit
            elif hex_[0] == level:
                at_level |= bit
        if direct and level == 1:
            gained, lost = SPLIT_BY_LEVEL[kind][at_level][0], MAYBE_LEGAL_BEFORE[kind][empty]
        else:
            gained, lost = SPLIT_BY_LEVEL[kind][at_level]
        if level == 1:
            # The ring triangles whose cells are all empty are legal (`legal_tables`).
            outer = OUTER_WHOLE
            for offset, bit in OUTER_NEEDED[kind][empty]:
                if y + offset in top:
                    outer ^= bit
            ring = empty | empty << 9
            outer |= outer << 15
            for ring_start, ring_mask, outer_start, outer_mask, width, table in RING_SECTORS[kind]:
                gained += table[
                    (ring >> ring_start & ring_mask) | (outer >> outer_start & outer_mask) << width
                ]
        # Relative ids are moved to this triangle one at a time, in the loops (cheaper
        # than a list of the moved ids built first).
        texts = self._legal_texts
        if texts is None:
            for relative in lost:
                other = y2 + relative
                if other in legal_set:
                    legal_set.discard(other)
                    del legal[bisect_left(legal, other)]
            # The new ones appended, then sorted in at once: one sort of the list (a
            # sorted run and a short tail) costs less than an insort each; into the set
            # at once too (the gained ids are distinct, `legal_tables`).
            size = len(legal)
            for relative in gained:
                other = y2 + relative
                if other not in legal_set:
                    legal.append(other)
            if len(legal) != size:
                legal_set.update(legal[size:])
                legal.sort()
            return
        # The same, the placements' texts kept in step.
        for relative in lost:
            other = y2 + relative
            if other in legal_set:
                legal_set.discard(other)
                at = bisect_left(legal, other)
                del legal[at]
                del texts[at]
        for relative in gained:
            other = y2 + relative
            if other not in legal_set:
                legal_set.add(other)
                at = bisect_left(legal, other)
                legal.insert(at, other)
                texts.insert(at, PLACEMENT_TEXTS[other])


@functools.cache
def _starting_city() -> City:
    """The starting city, read only: `City.starting` copies it."""
    return City.bare_starting()


def scan_legal_triangles(city: City) -> list[int]:
    """All legal triangles by a full scan of every triangle touching the city or its border."""
    cells = set(city.top)
    for cell in city.top:
        cells.update(cell + step for step in STEP)
    candidates = {2 * cell + relative for cell in cells for relative in TRIANGLES_OF_CELL}
    return sorted(t for t in candidates if city.is_legal(t))
