"""The platform's rating system, `competition.ratings.glicko`, through the seam, in plain
numbers (the ageing of idle ratings in the database: tests/platform/test_rating_ageing.py)."""

from __future__ import annotations

import math
from random import Random

import pytest

from competition import ratings
from competition.ratings import RatingEstimate as Value
from competition.ratings.glicko import (
    MIN_DEVIATION,
    NEW_VERSION_DEVIATION,
    PROVISIONAL_DEVIATION,
    START_DEVIATION,
)

DAY = 86_400.0


def test_a_bot_starts_unsure_and_provisional() -> None:
    start = ratings.initial()
    assert start == Value(1500.0, START_DEVIATION)
    assert ratings.is_provisional(start, 0)
    assert ratings.display(start) == "1500 ± 686"


def test_a_result_moves_the_unsure_more_and_makes_everyone_surer() -> None:
    sure, unsure = Value(1500.0, 60.0), Value(1500.0, 300.0)
    after_sure, after_unsure = ratings.update([sure, unsure], [2, 1], [50, 0])
    assert after_unsure.value - 1500.0 > 1500.0 - after_sure.value > 0
    assert after_sure.deviation is not None and after_unsure.deviation is not None
    assert after_sure.deviation < 60.0 and after_unsure.deviation < 300.0


def test_a_tie_is_half_a_point_in_every_pair() -> None:
    equal = [Value(1600.0, 120.0)] * 4
    tied = ratings.update(equal, [1, 1, 3, 3], [9] * 4)
    assert tied[0].value == tied[1].value > 1600.0 > tied[2].value == tied[3].value
    draw = ratings.update([Value(1600.0, 120.0)] * 2, [1, 1], [9, 9])
    assert [r.value for r in draw] == pytest.approx([1600.0, 1600.0])
    favourite = ratings.update([Value(1800.0, 80.0), Value(1500.0, 80.0)], [1, 1], [9, 9])
    assert favourite[0].value < 1800.0 < favourite[1].value + 300.0


@pytest.mark.parametrize("seed", range(5))
def test_two_seats_rate_as_glickos_own_update_for_one_game(seed: int) -> None:
    rng = Random(seed)
    one, other = (Value(rng.uniform(1200, 1800), rng.uniform(45, 350)) for _ in range(2))
    q = math.log(10.0) / 400.0
    for ranks, score in (([1, 2], 1.0), ([2, 1], 0.0), ([1, 1], 0.5)):
        assert one.deviation is not None and other.deviation is not None
        damping = 1.0 / math.sqrt(1.0 + 3.0 * (q * other.deviation) ** 2 / math.pi**2)
        expected = 1.0 / (1.0 + 10 ** (-damping * (one.value - other.value) / 400.0))
        precision = 1.0 / one.deviation**2 + q**2 * damping**2 * expected * (1.0 - expected)
        after = ratings.update([one, other], ranks, [5, 5])[0]
        assert after.value == pytest.approx(
            one.value + q / precision * damping * (score - expected)
        )
        floor = MIN_DEVIATION[2]
        assert after.deviation == pytest.approx(max(math.sqrt(1.0 / precision), floor))


def test_a_finishing_order_of_equals_says_most_about_the_last() -> None:
    equal = [Value(1500.0, 200.0)] * 4
    changes = [after.value - 1500.0 for after in ratings.update(equal, [1, 2, 3, 4], [9] * 4)]
    assert changes[0] > changes[1] > 0 > changes[2] > changes[3]
    assert -changes[3] > changes[0]  # last of four: beaten at every stage


@pytest.mark.parametrize("seed", range(10))
def test_deviations_only_shrink_with_results_never_below_the_floor(seed: int) -> None:
    rng = Random(seed)
    seats = rng.randint(2, 6)
    rated = [Value(rng.uniform(1000, 2000), rng.uniform(20, 350)) for _ in range(seats)]
    after = ratings.update(rated, [rng.randint(1, seats) for _ in range(seats)], [0] * seats)
    for before, now in zip(rated, after, strict=True):
        assert now.deviation is not None and before.deviation is not None
        floor = MIN_DEVIATION[seats]
        assert floor <= now.deviation <= max(before.deviation, floor)


def test_a_finishing_order_of_four_settles_a_rating_closer_than_games_of_two() -> None:
    def settled(seats: int) -> float:
        rated = [Value(1500.0, START_DEVIATION)] * seats
        for result in range(200):
            ranks = [(seat + result) % seats + 1 for seat in range(seats)]
            rated = ratings.update(rated, ranks, [result] * seats)
        assert rated[0].deviation is not None
        return rated[0].deviation

    assert settled(4) == MIN_DEVIATION[4] < settled(2) == MIN_DEVIATION[2]


def test_an_idle_rating_grows_unsure_up_to_the_start() -> None:
    settled = Value(1700.0, 50.0)
    assert ratings.aged(settled, 0.0) == settled
    month = ratings.aged(settled, 30 * DAY)
    assert month.value == 1700.0
    assert month.deviation is not None and 50.0 < month.deviation < PROVISIONAL_DEVIATION
    half_year = ratings.aged(settled, 182 * DAY)
    assert half_year.deviation is not None and half_year.deviation > PROVISIONAL_DEVIATION
    assert ratings.aged(settled, 6 * 365 * DAY).deviation == START_DEVIATION


def test_a_new_version_keeps_the_value_and_is_unsure_again() -> None:
    assert ratings.new_version(Value(1800.0, 60.0)) == Value(1800.0, NEW_VERSION_DEVIATION)
    assert ratings.new_version(Value(1800.0, 300.0)) == Value(1800.0, 300.0)
    assert ratings.is_provisional(ratings.new_version(Value(1800.0, 60.0)), 0)
