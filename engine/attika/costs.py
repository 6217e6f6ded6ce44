"""What a building costs on a given cell, whether a hand can pay it, and the exact ways
to pay it.

A cost is `(required, extra)`: `required[i]` cards of landscape i still due after the
discount, and `extra` cards of any landscape (what is left of a road's 5, plus the
colony surcharge). A required card may be paid with two cards of any landscape. A
payment is the number of cards of each landscape discarded; the legal payments are the
exact ones: they cover the cost and no card of them could be kept.
"""

from __future__ import annotations

from engine.attika.components import COST, IS_MAIN, IS_ROAD, ROAD_COST, UPSTREAM
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


def free_cells(state: AttikaState, player: int, building: int) -> set[int]:
    """The free map cells where the building would be a free build."""
    if IS_MAIN[building]:
        return set()
    placed = state.seats[player].placed
    if IS_ROAD[building]:
        sources = [placed[b] for b in placed if IS_ROAD[b]]
    else:
        upstream = UPSTREAM[building]
        sources = [placed[upstream]] if upstream in placed else []
    discount = state.index.discount
    return {
        source + step for source in sources for step in NEIGHBOUR_STEPS if source + step in discount
    }


def surcharge(state: AttikaState, player: int, cell: int) -> int:
    """One card per colony the player has when the building founds a new colony."""
    return 0 if state.index.near[player].get(cell) else state.index.colonies[player]


def discounted(building: int, discount: tuple[int, ...], colony_surcharge: int) -> Cost:
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
    return discounted(building, state.index.discount[cell], surcharge(state, player, cell))


def can_pay(hand: list[int] | Cards, cost: Cost) -> bool:
    required, extra = cost
    matched = short = 0
    for held, due in zip(hand, required, strict=True):
        if held >= due:
            matched += due
        else:
            matched += held
            short += due - held
    return sum(hand) - matched >= 2 * short + extra


def fewest_cards(hand: list[int] | Cards, cost: Cost) -> int:
    """The size of the smallest payment (matching cards first)."""
    required, extra = cost
    matched = sum(min(held, due) for held, due in zip(hand, required, strict=True))
    return matched + 2 * (sum(required) - matched) + extra


def payments(hand: list[int] | Cards, cost: Cost, limit: int = 0) -> list[Cards]:
    """Every exact payment, sorted. For each landscape, `paid_i = matched_i + spare_i`:
    matched_i cards pay required ones one for one; every required card left unmatched
    costs two cards of any landscape, and those and the extra cards are the spare ones,
    which may only be of a landscape whose required cards are all matched (otherwise a
    spare card would better have matched one). With a `limit`, stop after that many."""
    required, extra = cost
    if cost == FREE:
        return [NOTHING]
    found: list[Cards] = []
    limits = [min(held, due) for held, due in zip(hand, required, strict=True)]

    def matchings(index: int, chosen: list[int]) -> None:
        if index == 4:
            spare = 2 * sum(due - m for due, m in zip(required, chosen, strict=True)) + extra
            room = [hand[i] - chosen[i] if chosen[i] == required[i] else 0 for i in range(4)]
            for spares in _spreads(spare, room):
                paid = (
                    chosen[0] + spares[0],
                    chosen[1] + spares[1],
                    chosen[2] + spares[2],
                    chosen[3] + spares[3],
                )
                found.append(paid)
            return
        for m in range(limits[index] + 1):
            if limit and len(found) >= limit:
                return
            matchings(index + 1, [*chosen, m])

    matchings(0, [])
    return sorted(found)


def only_payment(hand: list[int] | Cards, cost: Cost) -> Cards | None:
    """The payment when there is exactly one exact payment (None when there are more).
    The cost must be payable. With every matching card used, the spare cards must fill
    the whole room of the landscapes that may take them, or go to a single landscape;
    and trading any matched card for two spare ones must be impossible."""
    if cost == FREE:
        return NOTHING
    required, extra = cost
    matched = [min(held, due) for held, due in zip(hand, required, strict=True)]
    spare = 2 * (sum(required) - sum(matched)) + extra
    room = [hand[i] - matched[i] if matched[i] == required[i] else 0 for i in range(4)]
    open_rooms = [i for i in range(4) if room[i]]
    if spare and len(open_rooms) > 1 and spare != sum(room):
        return None
    for i in range(4):
        if matched[i] and sum(room) - room[i] >= spare + 2:
            return None
    paid = list(matched)
    if spare:
        if len(open_rooms) == 1:
            paid[open_rooms[0]] += spare
        else:
            paid = [m + extra_room for m, extra_room in zip(matched, room, strict=True)]
    return (paid[0], paid[1], paid[2], paid[3])


def _spreads(total: int, room: list[int]) -> list[tuple[int, ...]]:
    """Every way to put `total` cards into four landscapes with at most room[i] each."""
    if total > sum(room):
        return []
    result: list[tuple[int, ...]] = []

    def place(index: int, left: int, chosen: tuple[int, ...]) -> None:
        if index == 3:
            if left <= room[3]:
                result.append((*chosen, left))
            return
        later = sum(room[index + 1 :])
        for k in range(max(0, left - later), min(room[index], left) + 1):
            place(index + 1, left - k, (*chosen, k))

    place(0, total, ())
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
