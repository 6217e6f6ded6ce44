"""Costs: the printed cost, the discount of the target hex and its free neighbours, the
colony surcharge, free builds along arrows and roads, and paying 2 cards for 1."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from engine.attika.costs import (
    FREE,
    build_cost,
    can_pay,
    fewest_cards,
    is_exact_payment,
    only_payment,
    payments,
)
from tests.engine.attika.support import b, cell, painted, put
from tests.engine.support import property_settings

# The rules text's example: a Fortress (3 mountains + 1 hill) on a hex whose surroundings
# show 2 mountains and some water: 1 mountain + 1 hill are still due.
FORTRESS_SITE = {(0, 0): "M", (1, 0): "M", (1, -1): "W", (0, -1): "W", (-1, 1): "W"}


def test_matching_symbols_of_the_hex_and_its_free_neighbours_are_deducted() -> None:
    """Decision #discount."""
    state = painted(FORTRESS_SITE)
    assert build_cost(state, 0, b("fortress"), cell(0, 0)) == ((1, 1, 0, 0), 0)


def test_symbols_under_buildings_deduct_nothing() -> None:
    """Decision #discount."""
    state = painted(FORTRESS_SITE)
    put(state, 1, "road_1", 1, 0)  # the other player's road covers a mountain
    assert build_cost(state, 0, b("fortress"), cell(0, 0)) == ((2, 1, 0, 0), 0)


def test_a_discount_never_goes_below_nothing() -> None:
    """Decision #discount."""
    state = painted(dict.fromkeys([(0, 0), (1, 0), (0, 1), (-1, 0), (0, -1)], "M"))
    assert build_cost(state, 0, b("quarry"), cell(0, 0)) == ((0, 1, 0, 0), 0)


def test_any_symbol_takes_one_card_off_a_roads_five() -> None:
    """Decision #road-discount."""
    state = painted({(0, 0): "M", (1, 0): "M", (0, 1): "W", (-1, 0): "W", (5, 5): "H"})
    assert build_cost(state, 0, b("road_1"), cell(0, 0)) == ((0, 0, 0, 0), 1)
    assert build_cost(state, 0, b("road_1"), cell(3, -3)) == ((0, 0, 0, 0), 5)


def test_a_new_colony_costs_one_card_more_per_colony_already_there() -> None:
    """Decision #colony-surcharge."""
    state = painted()
    assert build_cost(state, 0, b("quarry"), cell(0, 0)) == ((2, 1, 0, 0), 0)
    put(state, 0, "road_1", 3, 0)
    put(state, 0, "road_2", -3, 0)
    assert state.caches.index.colonies[0] == 2
    assert build_cost(state, 0, b("quarry"), cell(0, 0)) == ((2, 1, 0, 0), 2)
    # next to one of the player's buildings: no new colony, no surcharge
    assert build_cost(state, 0, b("quarry"), cell(2, 0)) == ((2, 1, 0, 0), 0)


def test_the_other_players_buildings_and_the_shrines_do_not_join_colonies() -> None:
    """Decision #colony-surcharge."""
    state = painted(shrines=((1, 0), (0, 5)))
    put(state, 0, "road_1", 2, 0)
    put(state, 1, "road_1", -1, 0)
    # (0, 0) touches the shrine and the other player's road but none of player 0's
    assert build_cost(state, 0, b("quarry"), cell(0, 0)) == ((2, 1, 0, 0), 1)
    put(state, 0, "road_2", 0, 0)
    assert state.caches.index.colonies[0] == 2


def test_a_building_is_free_next_to_the_one_its_arrow_comes_from() -> None:
    """Decision #free-builds."""
    state = painted()
    put(state, 0, "quarry", 0, 0)
    put(state, 0, "fortress", 1, 0)
    assert build_cost(state, 0, b("tower_1"), cell(2, 0)) == FREE
    assert build_cost(state, 0, b("tower_2"), cell(1, 1)) == FREE
    # not next to the fortress: full price
    assert build_cost(state, 0, b("tower_1"), cell(-1, 0)) == ((1, 1, 1, 0), 0)


def test_no_free_build_in_reverse_order_skipping_a_step_or_off_another_colour() -> None:
    """Decision #free-builds."""
    state = painted()
    put(state, 0, "tower_1", 0, 0)
    put(state, 0, "quarry", 3, -3)
    put(state, 1, "fortress", -3, 3)
    # reverse: the fortress next to the tower it points to
    assert build_cost(state, 0, b("fortress"), cell(1, 0)) == ((3, 1, 0, 0), 0)
    # skipping: the other tower next to the quarry
    assert build_cost(state, 0, b("tower_2"), cell(3, -2)) == ((1, 1, 1, 0), 0)
    # another player's fortress
    assert build_cost(state, 0, b("tower_2"), cell(-2, 3)) != FREE


def test_main_buildings_are_never_free() -> None:
    """Decision #free-builds."""
    state = painted()
    put(state, 0, "road_1", 0, 0)
    for main in ("agora", "quarry", "harbour", "granary", "mint", "vineyard"):
        assert build_cost(state, 0, b(main), cell(1, 0)) != FREE


def test_a_road_is_free_next_to_an_own_road_only() -> None:
    """Decision #free-builds."""
    state = painted()
    put(state, 0, "road_1", 0, 0)
    put(state, 1, "road_1", 3, 0)
    assert build_cost(state, 0, b("road_2"), cell(1, 0)) == FREE
    assert build_cost(state, 0, b("road_2"), cell(3, 1)) != FREE
    assert build_cost(state, 1, b("road_2"), cell(0, 1)) != FREE


def test_two_cards_of_any_landscape_stand_for_one_required_card() -> None:
    """Decision #two-for-one."""
    cost = ((1, 1, 0, 0), 0)
    assert payments((1, 1, 1, 1), cost) == [(0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 0)]
    assert payments((0, 1, 1, 1), cost) == [(0, 1, 1, 1)]  # the rules' example
    assert not can_pay((0, 1, 1, 0), cost)
    assert fewest_cards((0, 1, 1, 1), cost) == 3


def test_extra_cards_may_be_of_any_landscape() -> None:
    """Decision #two-for-one."""
    cost = ((0, 0, 0, 0), 2)
    assert payments((1, 1, 0, 0), cost) == [(1, 1, 0, 0)]
    assert payments((2, 1, 0, 0), cost) == [(1, 1, 0, 0), (2, 0, 0, 0)]


def _covers(paid: tuple[int, ...], cost: tuple[tuple[int, ...], int]) -> bool:
    """Brute force: some way of matching paid cards to required ones leaves enough."""
    required, extra = cost
    for matched in itertools.product(
        *(range(min(p, r) + 1) for p, r in zip(paid, required, strict=True))
    ):
        spare = sum(paid) - sum(matched)
        if spare >= 2 * (sum(required) - sum(matched)) + extra:
            return True
    return False


def _exact_by_brute_force(
    hand: tuple[int, ...], cost: tuple[tuple[int, ...], int]
) -> list[tuple[int, ...]]:
    found = []
    for paid in itertools.product(*(range(h + 1) for h in hand)):
        if not _covers(paid, cost):
            continue
        smaller = [tuple(p - (i == j) for j, p in enumerate(paid)) for i in range(4) if paid[i]]
        if not any(_covers(less, cost) for less in smaller):
            found.append(paid)
    return sorted(found)


hands = st.tuples(*[st.integers(0, 4)] * 4)
costs = st.tuples(st.tuples(*[st.integers(0, 3)] * 4), st.integers(0, 4))


@property_settings(400)
@given(hands, costs)
def test_payments_are_exactly_the_minimal_covering_ones(
    hand: tuple[int, int, int, int], cost: tuple[tuple[int, int, int, int], int]
) -> None:
    """Decision #payment-decision."""
    expected = _exact_by_brute_force(hand, cost)
    assert payments(hand, cost) == expected
    assert can_pay(hand, cost) == bool(expected)
    assert all(is_exact_payment(hand, cost, paid) for paid in expected)  # type: ignore[arg-type]
    if expected:
        assert fewest_cards(hand, cost) == min(sum(paid) for paid in expected)
        assert only_payment(hand, cost) == (expected[0] if len(expected) == 1 else None)
    for paid in itertools.product(*(range(h + 1) for h in hand)):
        assert is_exact_payment(hand, cost, paid) == (paid in expected)  # type: ignore[arg-type]


def test_a_free_build_never_pays_the_colony_surcharge() -> None:
    """Decision #free-build-no-colony."""
    state = painted()
    put(state, 0, "road_1", 4, -4)
    put(state, 0, "road_2", -4, 4)
    put(state, 0, "vineyard", 0, 0)
    assert state.caches.index.colonies[0] == 3
    assert build_cost(state, 0, b("vintner"), cell(1, 0)) == FREE
