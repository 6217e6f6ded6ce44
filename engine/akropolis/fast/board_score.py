"""A city scored from scratch in one pass over its hexes, for a game's result.

A random playout asks for no score until the end, so its cities keep no running score
(`running_score`), and building one would work out what a later placement needs (the
lakes as a set, each district's worth by cell) for no later placement. Here a box
around the city (a fixed window about the centre, or the city's own bounding box if it
reaches past it) is one integer, a bit per cell as in `lakes.lakes_of`, and the hexes
of each kind (level, code, stars) are one such integer each, built in a single pass.
The rules then read whole boards at once: a neighbour of every cell is a shift, so
"next to a market" or "surrounded" is six shifts whatever the number of districts,
and a colour's value is its levels times the counts of the cells meeting its
condition (`int.bit_count`).

`scoring.score_surface` stays the plain version, the oracle of the tests.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from engine.akropolis.components import (
    BARRACKS,
    COLOR_INDEX_OF,
    COLORS,
    GARDEN,
    HOUSE,
    IS_PLAZA,
    MARKET,
    MARKET_PLAZA,
    TEMPLE,
)
from engine.akropolis.fast.lakes import box_masks, box_of, outside_and_lakes, plainly_outside
from engine.akropolis.scoring import (
    BARRACKS_DOUBLED_EDGES,
    HOUSES_DOUBLED_FROM,
    TEMPLES_DOUBLED_FROM_LEVEL,
    VARIANTS,
    ColorValues,
)
from engine.hexgrid import NEIGHBOUR_STEPS, encode

Hex = tuple[int, int, int]
"""(level, hex code, plaza stars), as in a `scoring.Surface`."""

_R_BITS = 12
if encode(0, 1) - encode(0, 0) != 1 or encode(1, 0) - encode(0, 0) != 1 << _R_BITS:
    raise AssertionError("a board reads a cell code as q << 12 | r (both offset)")
_ROW = 1 << _R_BITS
if sorted(NEIGHBOUR_STEPS) != [-_ROW, 1 - _ROW, -1, 1, _ROW - 1, _ROW]:
    raise AssertionError("a board's neighbours are the shifts by 1, width and width - 1")


@functools.cache
def doubled(variants: tuple[str, ...]) -> tuple[bool, ...]:
    """Which colours' variants are on, in `VARIANTS` order (houses ... gardens)."""
    return tuple(name in variants for name in VARIANTS)


Levelled = list[tuple[int, int]]
"""(level, board) of the hexes of one colour, a board per level (and per stars)."""


def colour_values(top: Mapping[int, Hex], variants: tuple[str, ...]) -> ColorValues:
    """(values, stars) of the colours in `COLORS` order, as `scoring.score_surface`
    gives them."""
    values = [0] * len(COLORS)
    stars = [0] * len(COLORS)
    if not top:
        return values, stars
    rows, width, boards = hex_boards(top)
    filled = market_plazas = 0
    houses: Levelled = []
    markets: Levelled = []
    temples: Levelled = []
    barracks: Levelled = []
    gardens: Levelled = []
    for (level, code, hex_stars), board in boards.items():
        filled |= board
        if IS_PLAZA[code]:
            stars[COLOR_INDEX_OF[code]] += hex_stars * board.bit_count()
            if code == MARKET_PLAZA:
                market_plazas |= board
        elif code == HOUSE:
            houses.append((level, board))
        elif code == MARKET:
            markets.append((level, board))
        elif code == TEMPLE:
            temples.append((level, board))
        elif code == BARRACKS:
            barracks.append((level, board))
        elif code == GARDEN:
            gardens.append((level, board))
    double = doubled(variants)
    if houses:
        value = largest_house_group(houses, width)
        values[COLOR_INDEX_OF[HOUSE]] = (
            2 * value if double[0] and value >= HOUSES_DOUBLED_FROM else value
        )
    if markets:
        near_plazas = around(market_plazas, width) if double[1] else 0
        values[COLOR_INDEX_OF[MARKET]] = markets_value(markets, near_plazas, width)
    if temples:
        values[COLOR_INDEX_OF[TEMPLE]] = temples_value(temples, filled, width, double[3])
    lakes = 0
    if barracks or (gardens and double[4]):
        empty = box_masks(rows, width)[0] & ~filled
        if double[2] or (gardens and double[4]):
            outside, lakes = outside_and_lakes(empty, rows, width)
            values[COLOR_INDEX_OF[BARRACKS]] = barracks_value(barracks, outside, width, double[2])
        else:
            values[COLOR_INDEX_OF[BARRACKS]] = plain_barracks_value(barracks, empty, rows, width)
    if gardens:
        # Under the variant, a garden next to a lake counts twice.
        near_lakes = around(lakes, width) if lakes and double[4] else 0
        values[COLOR_INDEX_OF[GARDEN]] = sum(
            level * (board.bit_count() + (board & near_lakes).bit_count())
            for level, board in gardens
        )
    return values, stars


def hex_boards(top: Mapping[int, Hex]) -> tuple[int, int, dict[Hex, int]]:
    """The city's box (rows, width, as `lakes.box_of` lays it out) and the board of each
    hex (level, code, stars). Most cities lie within `WINDOW` of the centre: their box is
    the window's, whose cells' bits are a table's, so that a cell costs one look-up and
    no bounds are sought; a wider city falls back to its own box (`boxed_hex_boards`)."""
    boards: dict[Hex, int] = {}
    get = boards.get
    try:
        for cell, hex_ in top.items():
            boards[hex_] = get(hex_, 0) | BIT_IN_WINDOW[cell]
    except KeyError:
        return boxed_hex_boards(top)
    return _WINDOW_ROWS, _WINDOW_WIDTH, boards


def boxed_hex_boards(top: Mapping[int, Hex]) -> tuple[int, int, dict[Hex, int]]:
    """`hex_boards` in the city's own box (`lakes.box_of`), for any city."""
    q_base, rows, r_base, width = box_of(top)
    # Bit (q - q_base) * width + r - r_base of a cell, from its code q << 12 | r.
    shrink = (1 << _R_BITS) - width
    base = q_base * width + r_base
    boards: dict[Hex, int] = {}
    get = boards.get
    for cell, hex_ in top.items():
        boards[hex_] = get(hex_, 0) | 1 << (cell - (cell >> _R_BITS) * shrink - base)
    return rows, width, boards


WINDOW = 12
"""How far from the centre (in q and in r) a cell of `BIT_IN_WINDOW` may be. Random
games' cities mostly stay within it (all within 16); a wider window makes every
board operation dearer (12 did best of 10 to 16, by instructions per random turn)."""
_WINDOW_ROWS = 2 * WINDOW + 3
_WINDOW_WIDTH = 2 * WINDOW + 4
BIT_IN_WINDOW = {
    encode(q, r): 1 << ((q + WINDOW + 1) * _WINDOW_WIDTH + r + WINDOW + 1)
    for q in range(-WINDOW, WINDOW + 1)
    for r in range(-WINDOW, WINDOW + 1)
}
"""The bit of each cell within `WINDOW` in the box `box_of` gives the window's cells."""


def temples_value(temples: Levelled, filled: int, width: int, variant: bool) -> int:
    """What the temples are worth: those surrounded, twice on level 2 or higher under
    the variant."""
    step = width - 1
    surrounded = (
        filled >> 1
        & filled << 1
        & filled >> width
        & filled << width
        & filled >> step
        & filled << step
    )
    value = 0
    for level, board in temples:
        count = (board & surrounded).bit_count()
        doubled = variant and level >= TEMPLES_DOUBLED_FROM_LEVEL
        value += (2 * level if doubled else level) * count
    return value


def around(board: int, width: int) -> int:
    """The cells next to a cell of `board` (some of its own among them if they are
    next to each other)."""
    # The neighbours are 1 and -1 bits away, and two pairs: width - 1 and width, and
    # -width and 1 - width, each one shift of `pair` (the board and its shift by 1).
    pair = board | board << 1
    return board << 1 | board >> 1 | pair << (width - 1) | pair >> width


def plain_barracks_value(barracks: Levelled, empty: int, rows: int, width: int) -> int:
    """What the barracks are worth without the variant: those next to an empty cell
    score unless all of theirs are lakes. The outside is flooded only until every such
    barracks touches it (lakes are rare: mostly a few steps of the flood)."""
    everywhere = 0
    for _, board in barracks:
        everywhere |= board
    exposed = everywhere & around(empty, width)
    outside = plainly_outside(empty, rows, width)
    step = width - 1
    while exposed:
        # The outside and its neighbours (the barracks are not in the outside).
        pair = outside | outside << 1
        near = pair | pair >> 1 | pair << step | pair >> width
        if exposed & near == exposed:
            break
        grown = near & empty
        if grown == outside:
            exposed &= near  # the others see lakes alone
            break
        outside = grown
    return sum(level * (board & exposed).bit_count() for level, board in barracks)


def largest_house_group(houses: Levelled, width: int) -> int:
    """The value of the largest group of edge-connected houses (by size, then value).
    Most houses stand alone: those go at once (the highest is the best if all do), and
    the groups of the others are flooded across the house board, each from its lowest
    cell, until the houses left could not make a larger one."""
    everywhere = 0
    for _, board in houses:
        everywhere |= board
    grouped = everywhere & around(everywhere, width)
    if not grouped:
        return max(level for level, _ in houses)
    best_size = best_value = 0
    left = grouped
    step = width - 1
    while left:
        if left.bit_count() < best_size:
            break
        group = left & -left
        while True:
            pair = group | group << 1
            grown = (pair | pair >> 1 | pair << step | pair >> width) & grouped
            if grown == group:
                break
            group = grown
        left &= ~group
        size = group.bit_count()
        if size >= best_size:
            if len(houses) == 1:
                value = houses[0][0] * size
            else:
                value = sum(level * (board & group).bit_count() for level, board in houses)
            if size > best_size or value > best_value:
                best_size, best_value = size, value
    return best_value


def markets_value(markets: Levelled, near_plazas: int, width: int) -> int:
    """What the markets are worth: none next to another, twice if in `near_plazas`
    (next to a market plaza, under the variant; else none)."""
    everywhere = 0
    for _, board in markets:
        everywhere |= board
    crowded = around(everywhere, width)
    value = 0
    for level, board in markets:
        alone = board & ~crowded
        value += level * (alone.bit_count() + (alone & near_plazas).bit_count())
    return value


def barracks_value(barracks: Levelled, outside: int, width: int, variant: bool) -> int:
    """What the barracks are worth: those next to the outside, twice under the variant
    for three or four such neighbours (counted cell by cell: the variant is rare)."""
    near_outside = around(outside, width)
    value = 0
    for level, board in barracks:
        scoring = board & near_outside
        if not variant:
            value += level * scoring.bit_count()
            continue
        shifts = (1, -1, width, -width, width - 1, 1 - width)
        while scoring:
            low = scoring & -scoring
            scoring ^= low
            index = low.bit_length() - 1
            edges = sum(1 for shift in shifts if outside >> (index + shift) & 1)
            value += 2 * level if edges in BARRACKS_DOUBLED_EDGES else level
    return value
