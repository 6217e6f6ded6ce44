"""What a building costs on a given cell, whether a hand can pay it, the exact ways to pay
it, and so where a player can build.

A cost is `(required, extra)`: `required[i]` cards of landscape i still due after the
discount, and `extra` cards of any landscape (what is left of a road's 5, plus the
colony surcharge). A required card may be paid with two cards of any landscape. A
payment is the number of cards of each landscape discarded; the legal payments are the
exact ones: they cover the cost and no card of them could be kept.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.attika.actions import BuildOptions
from engine.attika.colonies import colonies
from engine.attika.components import COST, IS_MAIN, IS_ROAD, ROAD_COST, UPSTREAM, Discount
from engine.attika.map import buildings_on_map, free_cells
from engine.attika.state import AttikaState
from engine.hexgrid import NEIGHBOUR_STEPS

Cards = tuple[int, int, int, int]
Cost = tuple[Cards, int]

NOTHING: Cards = (0, 0, 0, 0)
FREE: Cost = (NOTHING, 0)


def is_free_build(state: AttikaState, player: int, building: int, cell: int) -> bool:
    """Built for nothing: next to the player's own building its arrow comes from, or,
    for a road, next to one of the player's own roads. Main buildings are never free."""
    if IS_MAIN[building]:
        return False
    placed = state.seats[player].placed
    if IS_ROAD[building]:
        sources = [placed[b] for b in placed if IS_ROAD[b]]
    else:
        upstream = UPSTREAM[building]
        sources = [placed[upstream]] if upstream in placed else []
    return any(cell - source in NEIGHBOUR_STEPS for source in sources)


def discount(state: AttikaState, cell: int) -> Discount:
    """Cost reduction: the symbols of each landscape on the target space and on its
    adjacent spaces that are still free (no building on them), then their total."""
    hexes, built = state.hexes, buildings_on_map(state)
    counts = [0, 0, 0, 0]
    for near in (cell, *(cell + step for step in NEIGHBOUR_STEPS)):
        symbol = hexes.get(near, -1)
        if symbol >= 0 and near not in built:
            counts[symbol] += 1
    return counts[0], counts[1], counts[2], counts[3], sum(counts)


def surcharge(state: AttikaState, player: int, cell: int) -> int:
    """Colony surcharge: one card per colony the player already has, when the building
    is not adjacent to any of their buildings (it founds a new colony)."""
    own = state.seats[player].placed.values()
    if any(cell - placed in NEIGHBOUR_STEPS for placed in own):
        return 0
    return len(colonies(state, player))


def discounted(building: int, discount: Discount, colony_surcharge: int) -> Cost:
    """The cost after the cell's discount: only matching symbols count, except for a road,
    where any symbol takes one card off its 5."""
    if IS_ROAD[building]:
        return NOTHING, max(0, ROAD_COST - discount[4]) + colony_surcharge
    m, h, f, w = COST[building]
    required = (
        m - discount[0] if m > discount[0] else 0,
        h - discount[1] if h > discount[1] else 0,
        f - discount[2] if f > discount[2] else 0,
        w - discount[3] if w > discount[3] else 0,
    )
    return required, colony_surcharge


def build_cost(state: AttikaState, player: int, building: int, cell: int) -> Cost:
    """What building on a free cell costs the player (FREE for a free build)."""
    if is_free_build(state, player, building, cell):
        return FREE
    return discounted(building, discount(state, cell), surcharge(state, player, cell))


def can_pay(hand: list[int] | Cards, cost: Cost) -> bool:
    required, extra = cost
    h0, h1, h2, h3 = hand
    r0, r1, r2, r3 = required
    matched = (
        (r0 if h0 >= r0 else h0)
        + (r1 if h1 >= r1 else h1)
        + (r2 if h2 >= r2 else h2)
        + (r3 if h3 >= r3 else h3)
    )
    short = r0 + r1 + r2 + r3 - matched
    return h0 + h1 + h2 + h3 - matched >= 2 * short + extra


def fewest_cards(hand: list[int] | Cards, cost: Cost) -> int:
    """The size of the smallest payment (matching cards first)."""
    required, extra = cost
    matched = sum(min(held, due) for held, due in zip(hand, required, strict=True))
    return matched + 2 * (sum(required) - matched) + extra


def payments(hand: list[int] | Cards, cost: Cost) -> list[Cards]:
    """Every exact payment, sorted. For each landscape, `paid_i = matched_i + spare_i`:
    matched_i cards pay required ones one for one; every required card left unmatched
    costs two cards of any landscape, and those and the extra cards are the spare ones,
    which may only be of a landscape whose required cards are all matched (otherwise a
    spare card would better have matched one). A payment has one such split (matched_i
    is min(paid_i, required_i)), so none is found twice. Loops, not recursion: a random
    playout asks for the payments of every build that has more than one."""
    if cost == FREE:
        return [NOTHING]
    required, extra = cost
    h0, h1, h2, h3 = hand
    r0, r1, r2, r3 = required
    due = 2 * (r0 + r1 + r2 + r3) + extra
    found: list[Cards] = []
    for m0 in range(min(h0, r0) + 1):
        room0 = h0 - m0 if m0 == r0 else 0
        for m1 in range(min(h1, r1) + 1):
            room1 = h1 - m1 if m1 == r1 else 0
            for m2 in range(min(h2, r2) + 1):
                room2 = h2 - m2 if m2 == r2 else 0
                for m3 in range(min(h3, r3) + 1):
                    room3 = h3 - m3 if m3 == r3 else 0
                    spare = due - 2 * (m0 + m1 + m2 + m3)
                    if spare > room0 + room1 + room2 + room3:
                        continue
                    for s0, s1, s2, s3 in _spreads(spare, room0, room1, room2, room3):
                        found.append((m0 + s0, m1 + s1, m2 + s2, m3 + s3))
    found.sort()
    return found


def only_payment(hand: list[int] | Cards, cost: Cost) -> Cards | None:
    """The payment when there is exactly one exact payment (None when there are more).
    The cost must be payable. With every matching card used, the spare cards must fill
    the whole room of the landscapes that may take them, or go to a single landscape;
    and trading any matched card for two spare ones must be impossible. (Asked at every
    build, so written out landscape by landscape.)"""
    if cost == FREE:
        return NOTHING
    required, extra = cost
    h0, h1, h2, h3 = hand
    r0, r1, r2, r3 = required
    m0 = r0 if h0 >= r0 else h0
    m1 = r1 if h1 >= r1 else h1
    m2 = r2 if h2 >= r2 else h2
    m3 = r3 if h3 >= r3 else h3
    spare = 2 * (r0 + r1 + r2 + r3 - m0 - m1 - m2 - m3) + extra
    room = (
        h0 - m0 if m0 == r0 else 0,
        h1 - m1 if m1 == r1 else 0,
        h2 - m2 if m2 == r2 else 0,
        h3 - m3 if m3 == r3 else 0,
    )
    all_room = room[0] + room[1] + room[2] + room[3]
    open_rooms = 4 - room.count(0)
    if spare and open_rooms > 1 and spare != all_room:
        return None
    enough = spare + 2  # a matched card traded for two spare ones needs this much room
    if (
        (m0 and all_room - room[0] >= enough)
        or (m1 and all_room - room[1] >= enough)
        or (m2 and all_room - room[2] >= enough)
        or (m3 and all_room - room[3] >= enough)
    ):
        return None
    if not spare:
        return (m0, m1, m2, m3)
    if open_rooms == 1:  # all the spare cards go to the one landscape with room
        room = (
            spare if room[0] else 0,
            spare if room[1] else 0,
            spare if room[2] else 0,
            spare if room[3] else 0,
        )
    return (m0 + room[0], m1 + room[1], m2 + room[2], m3 + room[3])


def _spreads(total: int, a: int, b: int, c: int, d: int) -> list[Cards]:
    """Every way to put `total` cards into four landscapes with at most a, b, c and d
    cards (`total` at most their sum)."""
    result: list[Cards] = []
    for x in range(max(0, total - b - c - d), min(a, total) + 1):
        left = total - x
        for y in range(max(0, left - c - d), min(b, left) + 1):
            rest = left - y
            for z in range(max(0, rest - d), min(c, rest) + 1):
                result.append((x, y, z, rest - z))
    return result


def is_exact_payment(hand: list[int] | Cards, cost: Cost, paid: Cards) -> bool:
    """The payment is held, covers the cost, and has no card to spare."""
    required, extra = cost
    if any(p < 0 or p > held for p, held in zip(paid, hand, strict=True)):
        return False
    matched = [min(p, due) for p, due in zip(paid, required, strict=True)]
    spare_needed = 2 * (sum(required) - sum(matched)) + extra
    # matched_i = min(paid_i, required_i) is the best matching, so the payment is exact
    # exactly when its other cards are just the spare ones needed.
    return sum(paid) - sum(matched) == spare_needed


def buildable_cells(state: AttikaState, player: int, building: int) -> list[int]:
    """The free cells where the player can build the building now: those whose cost
    their hand can pay, sorted."""
    hand = state.seats[player].hand
    return [
        cell
        for cell in free_cells(state)
        if can_pay(hand, build_cost(state, player, building, cell))
    ]


def legal_builds(state: AttikaState, player: int, buildings: Iterable[int]) -> BuildOptions:
    """Each of these buildings that can be built somewhere, with where."""
    options: BuildOptions = []
    for building in buildings:
        cells = buildable_cells(state, player, building)
        if cells:
            options.append((building, cells))
    return options
