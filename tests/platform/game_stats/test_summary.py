"""The statistics' arithmetic: win rates with shared first places, Wilson's interval at
its extremes, and distributions cut into round bins."""

from __future__ import annotations

import math

import pytest

from agon.game_stats.summary import (
    Bin,
    Outcomes,
    bin_width,
    histogram,
    mean_of,
    median_of,
    outcomes_of,
    wilson_interval,
)


def test_wilson_matches_the_textbook_value() -> None:
    # 7 successes in 10: Wilson's 95 % interval is (0.3968, 0.8922).
    low, high = wilson_interval(7, 10)
    assert low == pytest.approx(0.3968, abs=1e-4)
    assert high == pytest.approx(0.8922, abs=1e-4)


def test_a_clean_sweep_gives_an_interval_below_one_that_ends_at_one() -> None:
    low, high = wilson_interval(20, 20)
    assert high == 1.0
    assert 0.8 < low < 0.9  # 0.8389: twenty wins do not prove a certain win


def test_no_win_at_all_gives_an_interval_from_zero() -> None:
    low, high = wilson_interval(0, 20)
    assert low == 0.0
    assert 0.1 < high < 0.2


def test_one_game_gives_a_wide_interval() -> None:
    low, high = wilson_interval(1, 1)
    assert high == 1.0
    assert low == pytest.approx(0.2065, abs=1e-4)


def test_no_game_gives_the_whole_range() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_the_interval_narrows_as_games_add_up() -> None:
    widths = [math.fsum((-a, b)) for a, b in (wilson_interval(n / 2, n) for n in (10, 100, 1000))]
    assert widths == sorted(widths, reverse=True)


def test_a_shared_first_place_counts_its_share() -> None:
    outcomes = outcomes_of([(True, 1, 3), (True, 2, 2), (True, 4, 4), (False, 1, 1)])

    assert outcomes == Outcomes(played=10, wins=3, shared=6, credit=2 * 0.5 + 4 * 0.25)
    assert outcomes.rate == pytest.approx(0.5)


def test_all_draws_give_half_a_win_each_with_an_interval_around_it() -> None:
    outcomes = outcomes_of([(True, 2, 30)])

    assert outcomes.wins == 0
    assert outcomes.rate == pytest.approx(0.5)
    low, high = outcomes.interval() or (0.0, 0.0)
    assert low < 0.5 < high


def test_no_outcomes_have_no_rate_and_no_interval() -> None:
    assert Outcomes().rate is None
    assert Outcomes().interval() is None


def test_a_single_value_makes_one_bin() -> None:
    assert histogram([(42, 3)]) == [Bin(42, 42, 3)]


def test_no_values_make_no_bins() -> None:
    assert histogram([]) == []
    assert histogram([(5, 0)]) == []


def test_bins_are_round_aligned_and_hold_every_value() -> None:
    counts = [(value, 1) for value in range(-7, 120, 3)]

    bins = histogram(counts, max_bins=16)

    assert len(bins) <= 16
    width = bins[0].high - bins[0].low + 1
    assert width in (1, 2, 5, 10, 20, 50, 100)
    assert all(part.low % width == 0 for part in bins)
    assert bins[0].low <= -7 and bins[-1].high >= 117
    assert sum(part.count for part in bins) == len(counts)
    assert [b.low for b in bins] == list(range(bins[0].low, bins[-1].low + 1, width))


def test_the_width_is_the_smallest_round_one_that_fits() -> None:
    assert bin_width(0, 15, 16) == 1
    assert bin_width(0, 16, 16) == 2
    assert bin_width(1, 100, 16) == 10
    assert bin_width(-5, 4, 16) == 1


def test_empty_bins_between_values_are_kept() -> None:
    assert histogram([(1, 2), (4, 1)]) == [Bin(1, 1, 2), Bin(2, 2, 0), Bin(3, 3, 0), Bin(4, 4, 1)]


def test_mean_and_median_weigh_each_value_by_its_count() -> None:
    counts = [(10, 1), (20, 2), (100, 1)]
    assert mean_of(counts) == pytest.approx(37.5)
    assert median_of(counts) == 20
    assert median_of([(1, 1), (3, 1)]) == 2
    assert median_of([]) is None and mean_of([]) is None
