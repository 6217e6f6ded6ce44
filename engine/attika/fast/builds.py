"""Fast path of `costs.legal_builds`: where a player can build each of their buildings
right now, priced by groups of cells rather than cell by cell.

A free cell's cost depends only on its discount (the symbols it and its free neighbours
show) and on whether it touches one of the player's buildings (then there is no colony
surcharge). So the free cells are grouped by discount (the grouping is kept on the state
until the map or a building changes) and each group is priced once per building: once
with the surcharge for the whole group, once without it for the group's cells that touch
the player's buildings. Free builds (along an arrow, or a road next to an own road) are
added on top. Checked against the plain rule, which prices every free cell on its own,
by tests/engine/attika/fast/test_builds.py.

Where Attika's compiled core is in use (`engine.attika.native`), `legal_builds` is C
pricing each free cell (cheaper there than grouping); `legal_builds_in_python` stays the
reference, held to it by tests/engine/attika/test_native_builds.py.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.attika import native
from engine.attika.actions import BuildOptions
from engine.attika.components import (
    BUILDING_COUNT,
    COST,
    IS_MAIN,
    IS_ROAD,
    ROAD_COST,
    UPSTREAM,
    WORST,
    Discount,
)
from engine.attika.state import AttikaState
from engine.hexgrid import NEIGHBOUR_STEPS as STEPS

Due = tuple[int, int, int, int, int]
"""Cards still due per landscape after a discount, then in all (of any landscape for a
road, whose first four are zero)."""

_DUE_IDS: dict[Due, int] = {}
_DUES: list[Due] = []
_DUE_ROWS: dict[Discount, tuple[int, ...]] = {}
"""discount -> the id of what each building still costs there. Small ints keep the hot
loop's lookups cheap; both tables only ever grow, and stay small (discounts are few)."""


def cards_due(building: int, discount: Discount) -> Due:
    if IS_ROAD[building]:
        return (0, 0, 0, 0, max(0, ROAD_COST - discount[4]))
    m, h, f, w = (max(0, c - d) for c, d in zip(COST[building], discount, strict=False))
    return (m, h, f, w, m + h + f + w)


def due_row(discount: Discount) -> tuple[int, ...]:
    row = _DUE_ROWS.get(discount)
    if row is None:
        ids = []
        for building in range(BUILDING_COUNT):
            due = cards_due(building, discount)
            if due not in _DUE_IDS:
                _DUE_IDS[due] = len(_DUES)
                _DUES.append(due)
            ids.append(_DUE_IDS[due])
        row = _DUE_ROWS[discount] = tuple(ids)
    return row


Groups = list[tuple[tuple[int, ...], set[int]]]


class GroupsCache:
    """What `legal_builds` derives from the free cells, each part made when first needed
    and kept on the index until the map or a building changes (most calls price only
    the cells touching the player's buildings, and need neither of the first two)."""

    __slots__ = ("cells", "groups", "touching_of")

    def __init__(self) -> None:
        self.cells: tuple[int, ...] | None = None
        """All free cells, sorted."""
        self.groups: Groups | None = None
        """Per discount, its due row and its free cells."""
        self.touching_of: dict[int, Groups] = {}
        """Per player, the same for the free cells touching their buildings."""


def all_free_cells(state: AttikaState, cache: GroupsCache) -> tuple[int, ...]:
    cells = cache.cells
    if cells is None:
        cells = cache.cells = tuple(state.caches.index.free_sorted)
    return cells


def discount_groups(state: AttikaState, cache: GroupsCache) -> Groups:
    groups = cache.groups
    if groups is None:
        rows = _DUE_ROWS
        groups = cache.groups = [
            (rows.get(key) or due_row(key), members)
            for key, members in state.caches.index.by_discount.items()
        ]
    return groups


def legal_builds(state: AttikaState, player: int, buildings: Iterable[int]) -> BuildOptions:
    """`costs.legal_builds`: in C where Attika's compiled core is in use (`native`), else
    `legal_builds_in_python`, its reference."""
    core = native.CORE
    if core is not None:
        options: BuildOptions = core.legal_builds(state, player, buildings)
        return options
    return legal_builds_in_python(state, player, buildings)


def legal_builds_in_python(
    state: AttikaState, player: int, buildings: Iterable[int]
) -> BuildOptions:
    """`costs.legal_builds`, pricing each group of free cells of one discount once."""
    seat = state.seats[player]
    hand = seat.hand
    total = hand[0] + hand[1] + hand[2] + hand[3]
    index = state.caches.index
    colonies = index.colonies[player]
    cache = index.groups_cache
    if cache is None:
        cache = index.groups_cache = GroupsCache()
    touching = None
    groups: Groups = []
    placed = seat.placed
    free = index.discount
    options: BuildOptions = []
    for building in buildings:
        if total >= WORST[building] + colonies:
            options.append((building, cache.cells or all_free_cells(state, cache)))
            continue
        if touching is None:
            if total >= colonies:
                groups = cache.groups or discount_groups(state, cache)
            touching = cache.touching_of.get(player)
            if touching is None:
                touching = cache.touching_of[player] = _touching_groups(state, player)
            slacks = _slacks_of_hand(hand)  # after the rows: they may add due ids
        # free builds: next to the building its arrow comes from, or a road next to a road
        if IS_MAIN[building]:
            chosen: set[int] = set()
        elif IS_ROAD[building]:
            chosen = free.keys() & index.road_near[player]
        else:
            upstream = placed.get(UPSTREAM[building])
            chosen = set() if upstream is None else free.keys() & map(upstream.__add__, STEPS)
        if total >= colonies:  # a new colony might be affordable: price every group
            good = 0
            for row, members in groups:
                if slacks[row[building]] >= colonies:
                    chosen.update(members)
                    good += 1
            if good == len(groups):
                options.append((building, cache.cells or all_free_cells(state, cache)))
                continue
        for row, near_cells in touching:
            if slacks[row[building]] >= 0:
                chosen.update(near_cells)
        if chosen:
            options.append((building, sorted(chosen)))
    return options


def _touching_groups(state: AttikaState, player: int) -> Groups:
    """The due row and the cells of each discount among the free cells touching the
    player's buildings: the touching cells grouped by discount, or, when there are
    fewer discounts than touching cells, each discount's cells among those (a set
    intersection each)."""
    index = state.caches.index
    touching = index.touching[player]
    if not touching:
        return []
    rows = _DUE_ROWS
    if 2 * len(index.by_discount) <= 3 * len(touching):
        groups = index.groups_cache.groups
        if groups is not None:  # their rows are looked up already
            return [(row, near) for row, members in groups if (near := members & touching)]
        return [
            (rows.get(key) or due_row(key), near)
            for key, members in index.by_discount.items()
            if (near := members & touching)
        ]
    discount = index.discount
    by_discount: dict[Discount, set[int]] = {}
    for cell in touching:
        key = discount[cell]
        group = by_discount.get(key)
        if group is None:
            by_discount[key] = {cell}
        else:
            group.add(cell)
    return [(rows.get(key) or due_row(key), near) for key, near in by_discount.items()]


_SLACKS: dict[tuple[int, int, int, int], list[int]] = {}
"""hand -> its slack for each due id (`_slack`): a pure function of the two, remembered
across calls and games (hands are small, so few); emptied if it ever grows large."""
_MOST_HANDS = 2_000


def _slacks_of_hand(hand: list[int]) -> list[int]:
    """The hand's slack for every due id known so far."""
    key = (hand[0], hand[1], hand[2], hand[3])
    slacks = _SLACKS.get(key)
    if slacks is None:
        if len(_SLACKS) >= _MOST_HANDS:
            _SLACKS.clear()
        slacks = _SLACKS[key] = []
    if len(slacks) < len(_DUES):
        slacks.extend(_slack(key, due) for due in _DUES[len(slacks) :])
    return slacks


def _slack(hand: tuple[int, int, int, int], due: Due) -> int:
    """The cards left once a cost is paid without surcharge (matching cards first);
    negative when the hand cannot pay it."""
    m, h, f, w, due_total = due
    total = hand[0] + hand[1] + hand[2] + hand[3]
    if m + h + f + w == 0:  # nothing, or only cards of any landscape (a road)
        return total - due_total
    matched = (
        (m if hand[0] >= m else hand[0])
        + (h if hand[1] >= h else hand[1])
        + (f if hand[2] >= f else hand[2])
        + (w if hand[3] >= w else hand[3])
    )
    return total + matched - 2 * due_total
