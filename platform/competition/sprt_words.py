"""A version test in plain words: the question it asks, its answer so far and its Elo
estimate, the same on the test's page, in the API and in `agon match`.

"Is v3 at least 50 Elo stronger than v2?" "Yes: after 14 games (14 won, 0 drawn, 0 lost),
the test accepted H1 (v3 is at least 50 Elo stronger than v2) with 5% error rates."
"Estimated +280 Elo (95%: +85 or more)."
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from competition.sprt import Sprt, elo_interval

HELP = (
    "H1: the version is at least elo1 Elo stronger; H0: it is elo0 Elo stronger or less. "
    "The test plays pairs of games until it accepts one: alpha is the chance that it says "
    "yes (H1) when H0 is true, beta the chance that it says no (H0) when H1 is true. The "
    "defaults (0, 50, 0.05, 0.05) decide a 20-0 sweep within 14 games and bots 100 Elo apart "
    "in about 100; the closer elo0 and elo1, the more games a verdict takes."
)


def _elo(value: float) -> str:
    return f"{value:+.0f}"


def _number(value: float) -> str:
    return f"{value:g}"


def stronger(elo: float, baseline: str) -> str:
    """'at least 50 Elo stronger than v2', 'at least as strong as v2', 'at most 20 Elo
    weaker than v2'."""
    if elo > 0:
        return f"at least {_number(elo)} Elo stronger than {baseline}"
    if elo == 0:
        return f"at least as strong as {baseline}"
    return f"at most {_number(-elo)} Elo weaker than {baseline}"


def error_rates(test: Sprt) -> str:
    if test.alpha == test.beta:
        return f"{_number(test.alpha * 100)}% error rates"
    return (
        f"error rates of {_number(test.alpha * 100)}% (a wrong yes) and "
        f"{_number(test.beta * 100)}% (a wrong no)"
    )


@dataclass(frozen=True)
class VersionTestState:
    """What the words are made of: a test's settings, counts and status."""

    candidate: str
    baseline: str
    sprt: Sprt
    pentanomial: Sequence[int]
    games: int
    wins: int
    draws: int
    losses: int
    max_games: int
    status: str
    """"running", "finished" or "failed"."""
    verdict: str = ""
    """"H1", "H0" or "inconclusive" once finished."""
    error: str = ""
    mirrored: bool = False
    """Wins, draws and losses count comparisons of mirrored tables, not games."""


def question(state: VersionTestState) -> str:
    return f"Is {state.candidate} {stronger(state.sprt.elo1, state.baseline)}?"


def record(state: VersionTestState) -> str:
    """'14 games (14 won, 0 drawn, 0 lost)'."""
    games = f"{state.games} game{'s' if state.games != 1 else ''}"
    counted = "comparisons " if state.mirrored else ""
    return f"{games} ({state.wins} {counted}won, {state.draws} drawn, {state.losses} lost)"


def progress(state: VersionTestState) -> str:
    toward_h1, toward_h0 = state.sprt.progress(state.pentanomial)
    return f"{toward_h1:.0%} of the way to yes (H1) and {toward_h0:.0%} to no (H0)"


def answer(state: VersionTestState) -> str:
    h1 = f"{state.candidate} is {stronger(state.sprt.elo1, state.baseline)}"
    if state.status == "failed":
        return f"Stopped without an answer: {state.error}"
    if state.status == "running":
        if not state.games:
            return f"Running: no pair of games counted yet (at most {state.max_games} games)."
        return (
            f"Running: after {record(state)}, the evidence is {progress(state)} "
            f"(at most {state.max_games} games)."
        )
    if state.verdict == "H1":
        return (
            f"Yes: after {record(state)}, the test accepted H1 ({h1}) with "
            f"{error_rates(state.sprt)}."
        )
    if state.verdict == "H0":
        return (
            f"No: after {record(state)}, the test accepted H0 ({state.candidate} is not "
            f"{stronger(state.sprt.elo1, state.baseline)}) with {error_rates(state.sprt)}."
        )
    return (
        f"Undecided: the test reached its limit of {state.max_games} games after "
        f"{record(state)} without an answer; the evidence went {progress(state)}."
    )


def interval(low: float | None, high: float | None) -> str:
    if low is None and high is None:
        return "too few games to bound it"
    if high is None:
        return f"{_elo(low or 0.0)} or more"
    if low is None:
        return f"{_elo(high)} or less"
    return f"{_elo(low)} to {_elo(high)}"


def estimate(pentanomial: Sequence[int]) -> str:
    """'Estimated +280 Elo (95%: +85 or more).', or that there is none yet."""
    if not sum(pentanomial):
        return "No Elo estimate yet."
    found = elo_interval(pentanomial)
    return f"Estimated {_elo(found.elo)} Elo (95%: {interval(found.low, found.high)})."


def summary(state: VersionTestState) -> str:
    """The question, the answer and the estimate, in one paragraph."""
    return f"{question(state)} {answer(state)} {estimate(state.pentanomial)}"
