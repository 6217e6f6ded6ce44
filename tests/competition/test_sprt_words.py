"""A version test in plain words: the question, the answer in each state, the estimate
with an open side said as such."""

from __future__ import annotations

from dataclasses import replace

from competition.sprt import Sprt
from competition.sprt_words import (
    VersionTestState,
    answer,
    estimate,
    interval,
    question,
    summary,
)

SWEPT = VersionTestState(
    candidate="v3",
    baseline="v2",
    sprt=Sprt(),
    pentanomial=[0, 0, 0, 0, 7],
    games=14,
    wins=14,
    draws=0,
    losses=0,
    max_games=400,
    status="finished",
    verdict="H1",
)


def test_it_asks_whether_the_candidate_is_elo1_stronger() -> None:
    assert question(SWEPT) == "Is v3 at least 50 Elo stronger than v2?"
    assert question(replace(SWEPT, sprt=Sprt(elo0=-10, elo1=0))) == (
        "Is v3 at least as strong as v2?"
    )
    assert question(replace(SWEPT, sprt=Sprt(elo0=-30, elo1=-10))) == (
        "Is v3 at most 10 Elo weaker than v2?"
    )


def test_a_sweep_says_yes_with_its_record_and_error_rates() -> None:
    assert answer(SWEPT) == (
        "Yes: after 14 games (14 won, 0 drawn, 0 lost), the test accepted H1 (v3 is at "
        "least 50 Elo stronger than v2) with 5% error rates."
    )
    assert estimate(SWEPT.pentanomial).startswith("Estimated +")
    assert estimate(SWEPT.pentanomial).endswith(" or more).")


def test_h0_says_no() -> None:
    lost = replace(SWEPT, pentanomial=[7, 0, 0, 0, 0], wins=0, losses=14, verdict="H0")
    said = answer(replace(lost, sprt=Sprt(alpha=0.05, beta=0.1)))
    assert said.startswith("No: after 14 games (0 won, 0 drawn, 14 lost), the test accepted H0")
    assert "(v3 is not at least 50 Elo stronger than v2)" in said
    assert "error rates of 5% (a wrong yes) and 10% (a wrong no)" in said
    assert estimate(lost.pentanomial).endswith(" or less).")


def test_undecided_and_running_tests_say_how_far_the_evidence_went() -> None:
    even = replace(SWEPT, pentanomial=[1, 2, 4, 2, 1], games=20, wins=8, draws=4, losses=8)
    undecided = answer(replace(even, verdict="inconclusive"))
    assert undecided.startswith("Undecided: the test reached its limit of 400 games after 20")
    assert "% of the way to yes (H1) and " in undecided and "% to no (H0)" in undecided
    running = answer(replace(even, status="running", verdict=""))
    assert running.startswith("Running: after 20 games (8 won, 4 drawn, 8 lost), the evidence")
    assert running.endswith("(at most 400 games).")
    fresh = replace(SWEPT, pentanomial=[0] * 5, games=0, wins=0, status="running", verdict="")
    assert answer(fresh) == "Running: no pair of games counted yet (at most 400 games)."
    assert estimate(fresh.pentanomial) == "No Elo estimate yet."


def test_a_failed_test_says_why() -> None:
    failed = replace(SWEPT, status="failed", verdict="", error="match 7 failed 3 times")
    assert answer(failed) == "Stopped without an answer: match 7 failed 3 times"


def test_mirrored_tables_count_comparisons() -> None:
    assert "(14 comparisons won, 0 drawn, 0 lost)" in answer(replace(SWEPT, mirrored=True))


def test_an_interval_says_which_side_is_open() -> None:
    assert interval(-40.4, 65.2) == "-40 to +65"
    assert interval(130.0, None) == "+130 or more"
    assert interval(None, -130.0) == "-130 or less"
    assert interval(None, None) == "too few games to bound it"


def test_the_summary_is_question_answer_estimate() -> None:
    said = summary(SWEPT)
    assert said.startswith("Is v3 at least 50 Elo stronger than v2? Yes: after 14 games")
    assert "Estimated +" in said
