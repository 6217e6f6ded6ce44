"""The version tests' sequential test and Elo interval: sweeps decide, the error rates hold
(whatever the shape of the pairs), intervals never have zero width and leave a side open
rather than clamp it. fishtest's GSPRT, kept for comparison, is checked against results
published in Stockfish's history: test 5fe50b9d (STC, logistic bounds {-0.25, 1.25}) stopped
at LLR 2.95 with Ptnml(0-2) 292, 5905, 28939, 6129, 299; test 5fe552e4 (LTC, {0.25, 1.25})
stood at 2.92 with 5, 418, 6043, 506, 12."""

from __future__ import annotations

import math
from collections.abc import Callable
from random import Random
from statistics import NormalDist

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competition.sprt import (
    ELO_CLAMP,
    Z95,
    Sprt,
    elo_interval,
    gsprt_llr,
    logistic_elo,
    logistic_score,
    pair_outcome,
)

pentanomials = st.lists(st.integers(0, 200), min_size=5, max_size=5)


def sweep(pairs: int) -> list[int]:
    return [0, 0, 0, 0, pairs]


def test_fishtests_gsprt_reproduces_its_published_llr() -> None:
    assert gsprt_llr([292, 5905, 28939, 6129, 299], -0.25, 1.25) == pytest.approx(2.95, abs=0.005)
    assert gsprt_llr([5, 418, 6043, 506, 12], 0.25, 1.25) == pytest.approx(2.92, abs=0.005)


def test_a_sweep_left_fishtests_gsprt_undecided() -> None:
    # The bug of issue 24: 20-0 and 60-0 in games, LLR 0.28 and 0.85 of 2.94.
    assert gsprt_llr(sweep(10), 0, 10) == pytest.approx(0.28, abs=0.01)
    assert gsprt_llr(sweep(30), 0, 10) == pytest.approx(0.85, abs=0.01)


def test_the_defaults_fit_bots_far_apart() -> None:
    test = Sprt()
    assert (test.elo0, test.elo1, test.alpha, test.beta) == (0.0, 50.0, 0.05, 0.05)


def test_the_bounds_are_villes() -> None:
    test = Sprt(alpha=0.05, beta=0.1)
    assert test.upper == pytest.approx(math.log(20))
    assert test.lower == pytest.approx(math.log(0.1))


def test_a_sweep_is_accepted_within_twenty_games() -> None:
    test = Sprt()
    decided = next(pairs for pairs in range(1, 50) if test.verdict(sweep(pairs)))
    assert decided <= 10
    assert test.verdict(sweep(decided)) == "H1"
    assert test.verdict(sweep(10)) == "H1"


def test_a_sweep_the_other_way_is_rejected_as_fast() -> None:
    test = Sprt()
    assert test.verdict([10, 0, 0, 0, 0]) == "H0"
    assert test.evidence([10, 0, 0, 0, 0]) <= test.lower


def test_nothing_counted_is_no_evidence() -> None:
    test = Sprt()
    assert test.evidence([0] * 5) == 0.0
    assert test.progress([0] * 5) == (0.0, 0.0)
    assert test.verdict([0] * 5) is None


def test_all_drawn_pairs_point_to_h0_and_get_there() -> None:
    test = Sprt()
    assert test.verdict([0, 0, 3, 0, 0]) is None
    toward_h1, toward_h0 = test.progress([0, 0, 3, 0, 0])
    assert toward_h1 == 0.0 < toward_h0 < 1.0
    assert test.verdict([0, 0, 200, 0, 0]) == "H0"


def test_an_even_match_after_few_pairs_is_undecided() -> None:
    assert Sprt().verdict([1, 2, 4, 2, 1]) is None


def test_clear_results_decide() -> None:
    test = Sprt()
    assert test.verdict([10, 20, 40, 60, 70]) == "H1"
    assert test.verdict([70, 60, 40, 20, 10]) == "H0"


@given(st.lists(st.integers(0, 60), min_size=5, max_size=5), st.integers(0, 3))
def test_a_better_pair_never_lowers_the_evidence_for_h1(counts: list[int], cell: int) -> None:
    test = Sprt()
    better, worse = list(counts), list(counts)
    better[cell + 1] += 1
    worse[cell] += 1
    assert test.evidence_for_h1(better) >= test.evidence_for_h1(worse) - 1e-9
    assert test.evidence_for_h0(better) <= test.evidence_for_h0(worse) + 1e-9


@given(pentanomials)
def test_the_evidence_is_the_wealth_nearer_its_bound(counts: list[int]) -> None:
    test = Sprt()
    value = test.evidence(counts)
    toward_h1, toward_h0 = test.progress(counts)
    if value > 0:
        assert value == pytest.approx(test.evidence_for_h1(counts))
        assert toward_h1 >= toward_h0
    elif value < 0:
        assert value == pytest.approx(-test.evidence_for_h0(counts))
        assert toward_h0 >= toward_h1
    verdict = test.verdict(counts)
    assert (verdict == "H1") == (value >= test.upper)
    assert (verdict == "H0") == (value <= test.lower)


def verdicts(test: Sprt, pair: list[float], runs: int, max_pairs: int) -> list[tuple[str, int]]:
    """Each run's verdict and pairs played, on pairs drawn from `pair` (cell chances)."""
    found = []
    for run in range(runs):
        rng = Random(run)
        counts = [0] * 5
        verdict = "inconclusive"
        for _ in range(max_pairs):
            counts[rng.choices(range(5), pair)[0]] += 1
            verdict = test.verdict(counts) or verdict
            if verdict != "inconclusive":
                break
        found.append((verdict, sum(counts)))
    return found


def independent_games(elo: float, draws: float = 0.0) -> list[float]:
    """The pentanomial of two independent games of expected score s(elo), `draws` of them
    drawn."""
    win = logistic_score(elo) - draws / 2
    loss = 1 - win - draws
    return [loss**2, 2 * loss * draws, draws**2 + 2 * win * loss, 2 * win * draws, win**2]


def seed_decides(elo: float) -> list[float]:
    """Every pair won 2-0 by one side: the hardest shape for a test on pairs."""
    return [1 - logistic_score(elo), 0.0, 0.0, 0.0, logistic_score(elo)]


SHAPES: dict[str, Callable[[float], list[float]]] = {
    "independent games": independent_games,
    "draws": lambda elo: independent_games(elo, draws=0.3),
    "the seed decides the pair": seed_decides,
}


@pytest.mark.parametrize("shape", SHAPES)
def test_equal_bots_are_accepted_wrongly_at_most_alpha_of_the_time(shape: str) -> None:
    # 300 runs: alpha 0.05 would show as 15 wrong; 0.1 (30) is far beyond the noise.
    found = verdicts(Sprt(), SHAPES[shape](0.0), runs=300, max_pairs=150)
    assert sum(verdict == "H1" for verdict, _ in found) / len(found) < 0.1


@pytest.mark.parametrize("shape", SHAPES)
def test_bots_elo1_apart_are_rejected_wrongly_at_most_beta_of_the_time(shape: str) -> None:
    found = verdicts(Sprt(), SHAPES[shape](50.0), runs=300, max_pairs=150)
    assert sum(verdict == "H0" for verdict, _ in found) / len(found) < 0.1


def test_bots_100_elo_apart_are_told_apart_in_about_a_hundred_games() -> None:
    found = verdicts(Sprt(), independent_games(100.0), runs=200, max_pairs=200)
    assert sum(verdict == "H1" for verdict, _ in found) >= 195
    assert 2 * sum(pairs for _, pairs in found) / len(found) < 150, "bench/sprt.py: 108"


def test_a_sweep_has_a_finite_lower_bound_and_an_open_upper_side() -> None:
    estimate = elo_interval(sweep(10))
    assert estimate.high is None
    assert estimate.low is not None and 100 < estimate.low < estimate.elo < ELO_CLAMP
    lost = elo_interval([10, 0, 0, 0, 0])
    assert lost.low is None
    assert lost.high is not None and -ELO_CLAMP < lost.elo < lost.high < -100


def test_drawn_pairs_never_give_a_zero_width_interval() -> None:
    # The bug of issue 24: "0.0 [0.0, 0.0]" after three drawn pairs.
    estimate = elo_interval([0, 0, 3, 0, 0])
    assert estimate.elo == 0.0
    assert estimate.low is not None and estimate.high is not None
    assert estimate.low < -150 and estimate.high > 150
    many = elo_interval([0, 0, 100, 0, 0])
    assert many.low is not None and many.high is not None
    assert many.high - many.low > 10


def test_one_pair_bounds_little_and_none_bounds_nothing() -> None:
    one = elo_interval([0, 0, 0, 0, 1])
    assert one.low is not None and one.low < 0 < one.elo and one.high is None
    nothing = elo_interval([0] * 5)
    assert (nothing.elo, nothing.low, nothing.high) == (0.0, None, None)


@given(pentanomials)
def test_the_interval_holds_the_estimate_and_is_never_empty(counts: list[int]) -> None:
    estimate = elo_interval(counts)
    low = -math.inf if estimate.low is None else estimate.low
    high = math.inf if estimate.high is None else estimate.high
    assert -ELO_CLAMP <= estimate.elo <= ELO_CLAMP
    assert low < estimate.elo < high


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


def test_the_written_out_quantile_is_the_standard_normal_s() -> None:
    assert NormalDist().inv_cdf(0.975) == Z95
