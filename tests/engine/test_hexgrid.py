"""engine.hexgrid: axial coordinates, their integer codes and the neighbour order."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.hexgrid import (
    COORD_LIMIT,
    DIRECTIONS,
    NEIGHBOUR_STEPS,
    decode,
    distance,
    encode,
    neighbour_codes,
    neighbours,
    to_pixel,
)
from tests.engine.support import property_settings

COORDS = st.integers(min_value=-COORD_LIMIT, max_value=COORD_LIMIT)


def test_the_neighbour_order_is_the_rules_order() -> None:
    assert DIRECTIONS == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    assert neighbours(2, -3) == [(3, -3), (3, -4), (2, -4), (1, -3), (1, -2), (2, -2)]


def test_the_neighbour_order_goes_clockwise_on_screen() -> None:
    # Screen y grows downwards, so a positive cross product of consecutive directions
    # is a clockwise turn.
    points = [to_pixel(dq, dr) for dq, dr in DIRECTIONS]
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True):
        assert x1 * y2 - y1 * x2 > 0


@property_settings(300)
@given(q=COORDS, r=COORDS)
def test_codes_decode_back_to_their_coordinates(q: int, r: int) -> None:
    assert decode(encode(q, r)) == (q, r)


@property_settings(300)
@given(q=st.integers(-100, 100), r=st.integers(-100, 100))
def test_a_neighbour_step_on_codes_is_a_neighbour_step_on_coordinates(q: int, r: int) -> None:
    assert [decode(code) for code in neighbour_codes(encode(q, r))] == neighbours(q, r)
    assert [encode(q, r) + s for s in NEIGHBOUR_STEPS] == neighbour_codes(encode(q, r))


@property_settings(300)
@given(a=st.tuples(COORDS, COORDS), b=st.tuples(COORDS, COORDS))
def test_sorting_codes_sorts_by_q_then_r(a: tuple[int, int], b: tuple[int, int]) -> None:
    assert (encode(*a) < encode(*b)) == (a < b)


@pytest.mark.parametrize(("q", "r"), [(COORD_LIMIT + 1, 0), (0, -COORD_LIMIT - 1)])
def test_it_refuses_to_code_a_hex_out_of_range(q: int, r: int) -> None:
    with pytest.raises(ValueError, match="out of range"):
        encode(q, r)


def test_distance_counts_hex_steps() -> None:
    assert distance((0, 0), (0, 0)) == 0
    assert all(distance((0, 0), d) == 1 for d in DIRECTIONS)
    assert distance((0, 0), (2, -1)) == 2
    assert distance((-2, 3), (1, -1)) == 4
