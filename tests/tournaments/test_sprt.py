"""fishtest's SPRT, checked against results published in Stockfish's history: test 5fe50b9d
(STC, logistic bounds {-0.25, 1.25}) stopped at LLR 2.95 with Ptnml(0-2) 292, 5905, 28939,
6129, 299; test 5fe552e4 (LTC, {0.25, 1.25}) stood at 2.92 with 5, 418, 6043, 506, 12."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agon.tournaments.formats.sprt import (
    ELO_CLAMP,
    Sprt,
    elo_estimate,
    llr,
    logistic_elo,
    logistic_score,
    pair_outcome,
)

pentanomials = st.lists(st.integers(0, 200), min_size=5, max_size=5)


def test_it_reproduces_fishtests_published_llr() -> None:
    assert llr([292, 5905, 28939, 6129, 299], -0.25, 1.25) == pytest.approx(2.95, abs=0.005)
    assert llr([5, 418, 6043, 506, 12], 0.25, 1.25) == pytest.approx(2.92, abs=0.005)


def test_the_bounds_are_fishtests() -> None:
    test = Sprt(elo0=0, elo1=10, alpha=0.05, beta=0.05)
    assert test.lower == pytest.approx(-2.944, abs=0.001)
    assert test.upper == pytest.approx(2.944, abs=0.001)
    assert Sprt(alpha=0.05, beta=0.1).lower == pytest.approx(math.log(0.1 / 0.95))


def test_the_elo_estimate_matches_the_published_score() -> None:
    # W 7606 L 7368 D 68154: a score of 0.50143, +0.99 Elo.
    estimate = elo_estimate([292, 5905, 28939, 6129, 299])
    assert estimate.elo == pytest.approx(0.99, abs=0.01)
    assert estimate.low < estimate.elo < estimate.high


def test_a_clear_winner_is_accepted_and_a_clear_loser_rejected() -> None:
    test = Sprt(elo0=0, elo1=10)
    assert test.verdict([0, 0, 0, 0, 0]) is None
    assert test.verdict([10, 20, 40, 60, 70]) == "H1"
    assert test.verdict([70, 60, 40, 20, 10]) == "H0"


def test_an_even_match_after_few_pairs_is_undecided() -> None:
    assert Sprt(elo0=0, elo1=10).verdict([1, 2, 4, 2, 1]) is None


@given(st.lists(st.integers(1, 200), min_size=5, max_size=5), st.integers(0, 3))
def test_a_better_pair_never_lowers_the_llr(counts: list[int], cell: int) -> None:
    better = list(counts)
    better[cell + 1] += 1
    worse = list(counts)
    worse[cell] += 1
    assert llr(better, 0, 5) >= llr(worse, 0, 5) - 1e-9


@given(pentanomials)
def test_the_interval_holds_the_estimate(counts: list[int]) -> None:
    estimate = elo_estimate(counts)
    assert -ELO_CLAMP <= estimate.low <= estimate.elo <= estimate.high <= ELO_CLAMP


@given(st.floats(-900, 900))
def test_score_and_elo_are_inverse(elo: float) -> None:
    assert logistic_elo(logistic_score(elo)) == pytest.approx(elo, abs=1e-6)


def test_a_pairs_points_pick_its_cell() -> None:
    assert [pair_outcome(p) for p in (0, 0.5, 1, 1.5, 2)] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="0 to 2"):
        pair_outcome(3)


def test_it_refuses_inverted_hypotheses() -> None:
    with pytest.raises(ValueError, match="elo0"):
        Sprt(elo0=5, elo1=0)
