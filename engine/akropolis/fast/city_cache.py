"""What the fast paths keep about one city (`City.kept`), so that a turn costs no scan.

Each thing kept must equal a plain rule's answer for the city as it is:

- the legal triangles, a sorted list (and a set), equal to
  `geometry.scan_legal_triangles`; kept up to date around each placement
  (`legal_tables`), with each one's placements as JSON text once the compact legal
  actions are written (`actions.LegalActions.compact_text`). Under the compiled core
  (`engine.akropolis.native`) the list and the set are one object of the core's,
  `LegalTriangles`, from the city's first placement on: a sorted C array read as both;
- the score (`running_score.RunningScore`), equal to `scoring.score_surface`;
- the city's entry of the observation as JSON text (`observation_text.city_entry_text`),
  equal to `compact_json` of `state_json.city_hexes_to_json` with the tile count.

The legal triangles are updated around each placement. Only the triangles sharing a cell
with the new tile can lose or gain their legality on a higher level, and they need only
the level of the cells they do not share (the tile's own cells are one tile, so never
all of theirs); a level-1 tile also makes the empty triangles of its ring legal. The
plain full scan runs once per process, for the starting city that every new city copies,
and for a city loaded from JSON.

A copy shares the legal list with its original, and both put off their updates
(`pending`) until the list is next asked for: a lookahead that only scores the move it
tries never pays for them. Replayed in order against the city as it is by then, the
updates give the same list (a triangle an update got wrong, by a cell a later tile
covered, contains a cell of that tile, so the later update checks it again). Only an
update made as the tile is placed, the list exact just before, may leave out the
triangles that could not have been legal then (`legal_tables.MAYBE_LEGAL_BEFORE`): a
replay knows the city only as it is later, and tries them all.

The score is kept the same way once asked for, so that reading it after each placement
costs no rescoring of the city.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from typing import cast

from engine.akropolis import native
from engine.akropolis.fast.board_score import colour_values as board_colour_values
from engine.akropolis.fast.board_score import doubled
from engine.akropolis.fast.legal_tables import (
    MAYBE_LEGAL_BEFORE,
    OUTER_NEEDED,
    OUTER_WHOLE,
    RING_BITS,
    RING_SECTORS,
    SPLIT_BY_LEVEL,
)
from engine.akropolis.fast.running_score import RunningScore
from engine.akropolis.geometry import TRIANGLE_ACTIONS, is_legal, scan_legal_triangles
from engine.akropolis.scoring import ColorValues
from engine.hexgrid import decode

Hex = tuple[int, int, int]
"""The visible hex on a cell: (level, hex code, plaza stars or 0)."""


class CityCache:
    """What the fast paths keep about one city; see the module's docstring. `City.place`
    tells it of each placement (marks the texts stale, follows the placement in the legal
    list, or puts it off on a shared list, and in the running score)."""

    __slots__ = (
        "changed_cells",
        "hex_texts",
        "legal",
        "legal_set",
        "legal_shared",
        "legal_texts",
        "pending",
        "score",
        "text",
    )

    def __init__(self, legal: list[int] | None = None) -> None:
        self.legal = legal
        """The legal triangles, sorted (do not mutate: see `legal_shared`); None: not known.
        Under the compiled core, once the city has changed: the core's `LegalTriangles`
        (`engine.akropolis.native`), read as this list is, and the set too."""
        self.legal_set: set[int] = set() if legal is None else set(legal)
        self.legal_shared = False
        """Whether `legal`, `legal_set` and `legal_texts` are shared with copies (then
        changes wait in `pending`, and the first to be asked copies them)."""
        self.legal_texts: list[str] | None = None
        """Each legal triangle's placements as JSON text, in `legal`'s order: kept, as
        `legal` is, once the compact legal actions are first written
        (`legal_placements_text`), so that writing them again is one join."""
        self.pending: tuple[tuple[int, int], ...] = ()
        """(triangle, level) of the placements not yet followed in the shared list (a
        tuple, shared by a copy as it is)."""
        self.score: RunningScore | None = None
        self.text: str | None = None
        """The JSON text of the city's entry in the observation, until the city changes
        (`observation_text.city_entry_text`; shared with copies)."""
        self.hex_texts: tuple[list[int], list[str]] | None = None
        """The occupied cells, sorted, and each one's hex as JSON text, as of the
        placements in `changed_cells` ago: kept by `observation_text`, which updates them
        from those (shared with copies; never changed, only replaced)."""
        self.changed_cells: tuple[int, ...] = ()
        """The cells placed on since `hex_texts` (followed only while there are some; a
        tuple, shared by a copy as it is)."""

    def copy(self) -> CityCache:
        twin = CityCache.__new__(CityCache)
        twin.legal, twin.legal_set = self.legal, self.legal_set
        twin.legal_texts = self.legal_texts
        twin.pending = self.pending
        if self.legal is None:
            twin.legal_shared = False
        else:
            twin.legal_shared = self.legal_shared = True
        score = self.score
        twin.score = None if score is None else score.copy()
        twin.text = self.text
        twin.hex_texts = self.hex_texts
        twin.changed_cells = self.changed_cells
        return twin

    # --- the legal triangles ----------------------------------------------------------

    def can_cover(self, top: Mapping[int, Hex], tile_at: Mapping[int, int], triangle: int) -> bool:
        """`geometry.is_legal`, read from the legal set when it is up to date."""
        if self.legal is not None and not self.pending:
            return triangle in self.legal_set
        return is_legal(top, tile_at, triangle)

    def legal_triangles(self, top: Mapping[int, Hex], tile_at: Mapping[int, int]) -> list[int]:
        """`geometry.scan_legal_triangles` of the city (do not mutate the list)."""
        legal = self.legal
        if legal is None:
            legal = self.legal = scan_legal_triangles(top, tile_at)
            self.legal_set = set(legal)
            self.legal_texts = None
            self.legal_shared = False
        elif self.legal_shared:
            # Copied before it changes: a list and its set, or the compiled core's
            # `LegalTriangles`, which is both (see `update_legal`).
            if type(legal) is list:
                legal = self.legal = list(legal)
                self.legal_set = set(self.legal_set)
            else:
                legal = self.legal = legal.copy()
                # The same object, read as the set (`in`, `len`) where the list is read.
                self.legal_set = cast(set[int], legal)
            if self.legal_texts is not None:
                self.legal_texts = list(self.legal_texts)
            self.legal_shared = False
            for triangle, level in self.pending:
                self.update_legal(top, triangle, level, False)
            self.pending = ()
        return legal

    def legal_placements_text(self, top: Mapping[int, Hex], tile_at: Mapping[int, int]) -> str:
        """The placements of `legal_triangles` as JSON text, without the brackets: the
        compact legal actions' list (see `actions.LegalActions.compact_text`)."""
        legal = self.legal
        if legal is None or self.legal_shared:
            legal = self.legal_triangles(top, tile_at)
        texts = self.legal_texts
        if texts is None:
            texts = self.legal_texts = [PLACEMENT_TEXTS[triangle] for triangle in legal]
        return ",".join(texts)

    def update_legal(self, top: Mapping[int, Hex], triangle: int, level: int, direct: bool) -> None:
        """Follow a tile placed on `triangle` at `level` in the legal list: `direct`
        when the list is exact for the city as it was just before (not a replay)."""
        legal = self.legal
        if legal is None:
            return
        core = native.CORE
        if core is not None and type(top) is dict:
            # The compiled core (`engine.akropolis.native`): `update_legal_in_python`, in C.
            # Under the core, a city's first placement turns its list and set into the
            # core's `LegalTriangles` (sorted ids in a C array, read as the list and as the
            # set: kept in both slots), which it updates in place.
            core.update_legal(
                top,
                legal,
                self.legal_set,
                self.legal_texts,
                PLACEMENT_TEXTS,
                triangle,
                level,
                direct,
            )
            return
        if type(legal) is not list:
            # The core's `LegalTriangles`, the core now off (the tests and benchmarks turn
            # it off between calls): a list and its set again.
            self.legal = list(legal)
            self.legal_set = set(legal)
        self.update_legal_in_python(top, triangle, level, direct)

    def update_legal_in_python(
        self, top: Mapping[int, Hex], triangle: int, level: int, direct: bool
    ) -> None:
        """`update_legal` in pure Python: the reference the compiled core is held to, and
        the fallback where it is not built."""
        legal, legal_set = self.legal, self.legal_set
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
        texts = self.legal_texts
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

    # --- the score --------------------------------------------------------------------

    def running_score(self, top: Mapping[int, Hex], variants: tuple[str, ...]) -> RunningScore:
        """The city's score under these variants, kept up to date from now on."""
        score = self.score
        if score is None or score.variants != variants:
            score = self.score = RunningScore.of(top, variants)
        return score

    def points(self, top: Mapping[int, Hex], variants: tuple[str, ...]) -> int:
        """`running_score(...).total(top)` in one call: a lookahead reads it after every
        move it tries."""
        score = self.score
        if score is None or score.variants != variants:
            score = self.score = RunningScore.of(top, variants)
        points = score.points
        return score.total(top) if points is None else points

    def colour_values(self, top: Mapping[int, Hex], variants: tuple[str, ...]) -> ColorValues:
        """The (values, stars) of the colours: from the running score if one is kept
        under these variants (a lookahead read its score, so it costs nothing more),
        else worked out once on boards (`board_score`), without starting a running score
        that no placement will follow (the end of a random playout)."""
        score = self.score
        if score is not None and score.variants == variants:
            return score.colour_values(top)
        core = native.CORE
        if core is not None and type(top) is dict:
            # The compiled core (`engine.akropolis.native`): `board_score.colour_values`,
            # in C.
            values: ColorValues = core.board_values(top, doubled(variants))
            return values
        return board_colour_values(top, variants)


def placements_text(triangle: int) -> str:
    """The three placements covering a triangle as JSON text, in action order:
    [q,r,rotation],[q,r,rotation],[q,r,rotation] (see `actions.placements_of`)."""
    y, kind = divmod(triangle, 2)
    texts = []
    for offset, rotation in TRIANGLE_ACTIONS[kind]:
        q, r = decode(y + offset)
        texts.append(f"[{q},{r},{rotation}]")
    return ",".join(texts)


class _PlacementTexts(dict[int, str]):
    """`placements_text` of each triangle met, kept: read by plain indexing."""

    def __missing__(self, triangle: int) -> str:
        text = self[triangle] = placements_text(triangle)
        return text


PLACEMENT_TEXTS = _PlacementTexts()
