"""Version tests: a sequential test on pairs of games that decides, at the error rates it
states, whatever the shape of the pairs' outcomes.

Games come in pairs with the seats swapped (each dealt afresh: formats.core), and a pair's
score for the candidate (0, 1/2, 1, 3/2 or 2 points, a fraction x of its two points) is one
draw from a pentanomial distribution of mean m. The test weighs H0: m <= s(elo0) against
H1: m >= s(elo1), in logistic Elo (a score s is worth -400 log10(1/s - 1)).

Why not fishtest's GSPRT (`gsprt_llr`, kept to compare with in bench/sprt.py): its LLR
compares the pentanomial distributions of expectation s(elo0) and s(elo1) nearest the data.
When every pair is won 2-0, the nearest ones put all their mass on 0 and 2 points, so each
pair adds log(s(elo1) / s(elo0)) to the LLR whatever the regularization: 20-0 in games
between bots hundreds of Elo apart was still undecided (0.28 for elo0 0, elo1 10; 1.34 for
elo1 50, against a bound of 2.94). Such a test compares two points; the question is
whether the candidate is at least elo1 stronger.

This test bets (Shafer and Vovk; Waudby-Smith and Ramdas, "Estimating means of bounded
random variables by betting", 2023). For H1, a gambler starts with 1 and stakes a share
theta of its wealth on each pair, which pays 1 + theta (x - s0) / s0 (s0 = s(elo0)): it
never goes below 0, and its expected value is at most 1 whenever m <= s0, so its wealth is a
nonnegative supermartingale under every distribution of H0 and, by Ville's inequality,
reaches 1/alpha with probability at most alpha: at any pair, with no asymptotics and no
assumption on the pentanomial shape (draws, seat advantage, seeds that favour one bot). For
H0 the gambler bets on the pairs scoring below s1 = s(elo1), 1 + theta (s1 - x) / (1 - s1),
and reaches 1/beta with probability at most beta when m >= s1.

Each gambler splits its starting wealth over a few fixed stakes (Robbins' method of
mixtures): half on the stake of the binomial SPRT of s0 against s1 (theta (s1 - s0) /
(1 - s0), and (s1 - s0) / s1 for H0), which decides near the hypotheses, and the other half
evenly on twice, four times... that stake up to MAX_STAKE, which decide sweeps and large
differences fast. A fixed stake's wealth is a product over the pairs, so both wealths are
functions of the pentanomial counts alone: the pairs' order does not matter and the test
keeps no state.

The test stops at the first pair where a wealth reaches its bound. `Sprt.evidence` is the
log of the wealth nearer its bound, positive for H1 and negative for H0: the test accepts H0
at log(beta) and H1 at log(1/alpha) (the platform stores and charts it as the LLR).

The Elo estimate and its 95% interval (`elo_interval`) are Agresti and Coull's for the mean
pair score: Z95^2 / 2 pseudo-pairs scoring 0 and as many scoring 2 join the pairs, and the
interval is the mean plus or minus Z95 standard errors of the joined sample. On pairs of 0
or 2 points it is Agresti-Coull's binomial interval; it never has zero width (three drawn
pairs: +-220 Elo), and a side beyond every score (a sweep's upper side) is unbounded: None.
(`elo_estimate`, the normal interval of the mean, is the gauntlet's.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The five outcomes of a pair as a fraction of its two points."""
ELO_CLAMP = 1000.0
"""Elo estimates lie within +-ELO_CLAMP; an interval's side beyond it is unbounded."""
Z95 = 1.9599639845400536
"""The standard normal's 97.5% quantile, `statistics.NormalDist().inv_cdf(0.975)` (a test
holds them equal): written out, since `statistics` costs a command's start 10 ms."""
PSEUDO_PAIRS = Z95 * Z95 / 2
"""Agresti-Coull: pseudo-pairs scoring 0 and as many scoring 2 join the sample."""
MAX_STAKE = 0.95
"""The largest share of its wealth a gambler stakes on one pair."""
DEFAULT_ELO0 = 0.0
DEFAULT_ELO1 = 50.0
DEFAULT_ALPHA = 0.05
DEFAULT_BETA = 0.05
"""The defaults of version tests and `agon match` (bench/sprt.py measured them): bots a
hundred Elo apart are decided in about 100 games, sweeps in 14, equal bots in about 330."""


def logistic_score(elo: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def logistic_elo(score: float) -> float:
    if score <= 0.0:
        return -ELO_CLAMP
    if score >= 1.0:
        return ELO_CLAMP
    return max(-ELO_CLAMP, min(ELO_CLAMP, -400.0 * math.log10(1.0 / score - 1.0))) + 0.0


def pair_outcome(points: float) -> int:
    """The pentanomial cell of a pair in which the candidate scored `points` of 2."""
    cell = round(2 * points)
    if not 0 <= cell <= 4:
        raise ValueError(f"a pair scores 0 to 2 points, not {points}")
    return cell


def _check(counts: Sequence[int]) -> int:
    if len(counts) != len(PAIR_SCORES):
        raise ValueError("pentanomial counts are five numbers")
    return sum(counts)


@dataclass(frozen=True)
class EloEstimate:
    elo: float
    low: float
    high: float


def elo_estimate(counts: Sequence[int]) -> EloEstimate:
    """Elo difference and its 95% interval from pentanomial counts, from the mean pair score
    and its standard error, clamped to +-ELO_CLAMP: the gauntlet's. When every pair scored
    the same the interval has zero width, and a sweep reads 1000 [1000, 1000]: version tests
    use `elo_interval`."""
    pairs = _check(counts)
    if pairs == 0:
        return EloEstimate(0.0, -ELO_CLAMP, ELO_CLAMP)
    mean = sum(n * a for n, a in zip(counts, PAIR_SCORES, strict=True)) / pairs
    variance = sum(n * (a - mean) ** 2 for n, a in zip(counts, PAIR_SCORES, strict=True)) / pairs
    error = Z95 * math.sqrt(variance / pairs)
    return EloEstimate(logistic_elo(mean), logistic_elo(mean - error), logistic_elo(mean + error))


@dataclass(frozen=True)
class EloInterval:
    """The Elo difference and its 95% interval; a side is None where the data bound it
    no further (after a sweep, the upper one: "+130 or more")."""

    elo: float
    low: float | None
    high: float | None


def _bound(score: float) -> float | None:
    if not 0.0 < score < 1.0:
        return None
    elo = -400.0 * math.log10(1.0 / score - 1.0)
    return elo if -ELO_CLAMP <= elo <= ELO_CLAMP else None


def elo_interval(counts: Sequence[int]) -> EloInterval:
    """Elo difference and its 95% interval from pentanomial counts, Agresti and Coull's (the
    estimate is the interval's centre, drawn towards 0 by the pseudo-pairs: 7-0 in pairs is
    +280, not infinite); none counted: 0, unbounded both ways."""
    pairs = _check(counts)
    total = pairs + 2 * PSEUDO_PAIRS
    mean = (sum(n * a for n, a in zip(counts, PAIR_SCORES, strict=True)) + PSEUDO_PAIRS) / total
    spread = sum(n * (a - mean) ** 2 for n, a in zip(counts, PAIR_SCORES, strict=True))
    spread += PSEUDO_PAIRS * (mean**2 + (1.0 - mean) ** 2)
    error = Z95 * math.sqrt(spread / total / total)
    return EloInterval(logistic_elo(mean), _bound(mean - error), _bound(mean + error))


def _log_wealth(counts: Sequence[int], payoffs: Sequence[float], design: float) -> float:
    """The log of a gambler's wealth: started at 1, split half on the stake `design`, half
    evenly on its doublings up to MAX_STAKE; each pair of cell c multiplies a stake's share
    by 1 + stake * payoffs[c] (payoffs at least -1)."""
    design = min(design, MAX_STAKE)
    larger = []
    stake = 2 * design
    while stake < MAX_STAKE:
        larger.append(stake)
        stake *= 2
    larger.append(MAX_STAKE)
    shares = [(design, 0.5), *((stake, 0.5 / len(larger)) for stake in larger)]
    logs = []
    for stake, share in shares:
        log = math.log(share)
        for n, payoff in zip(counts, payoffs, strict=True):
            if n:
                log += n * math.log1p(stake * payoff)
        logs.append(log)
    top = max(logs)
    wealth = top + math.log(math.fsum(math.exp(log - top) for log in logs))
    return 0.0 if abs(wealth) < 1e-12 else wealth  # the shares' rounding: 1 is 1


@dataclass(frozen=True)
class Sprt:
    elo0: float = DEFAULT_ELO0
    elo1: float = DEFAULT_ELO1
    alpha: float = DEFAULT_ALPHA
    beta: float = DEFAULT_BETA

    def __post_init__(self) -> None:
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("alpha and beta are probabilities between 0 and 1")
        if not self.elo0 < self.elo1:
            raise ValueError("elo0 must be below elo1")

    @property
    def lower(self) -> float:
        """H0 is accepted at or below this evidence: -log(1/beta)."""
        return math.log(self.beta)

    @property
    def upper(self) -> float:
        """H1 is accepted at or above this evidence: log(1/alpha)."""
        return -math.log(self.alpha)

    def evidence_for_h1(self, counts: Sequence[int]) -> float:
        """The log wealth of the gambler against H0 (H1 at `upper`)."""
        _check(counts)
        s0, s1 = logistic_score(self.elo0), logistic_score(self.elo1)
        return _log_wealth(counts, [(a - s0) / s0 for a in PAIR_SCORES], (s1 - s0) / (1 - s0))

    def evidence_for_h0(self, counts: Sequence[int]) -> float:
        """The log wealth of the gambler against H1 (H0 at -`lower`)."""
        _check(counts)
        s0, s1 = logistic_score(self.elo0), logistic_score(self.elo1)
        return _log_wealth(counts, [(s1 - a) / (1 - s1) for a in PAIR_SCORES], (s1 - s0) / s1)

    def progress(self, counts: Sequence[int]) -> tuple[float, float]:
        """How far the evidence has gone towards H1 and towards H0, each from 0 (none) to 1
        (accepted)."""
        toward_h1 = self.evidence_for_h1(counts) / self.upper
        toward_h0 = self.evidence_for_h0(counts) / -self.lower
        return max(0.0, min(1.0, toward_h1)), max(0.0, min(1.0, toward_h0))

    def evidence(self, counts: Sequence[int]) -> float:
        """The log wealth nearer its bound: positive towards H1, negative towards H0, 0
        while neither gambler is ahead."""
        for_h1, for_h0 = self.evidence_for_h1(counts), self.evidence_for_h0(counts)
        if max(0.0, for_h1) / self.upper >= max(0.0, for_h0) / -self.lower:
            return max(0.0, for_h1)
        return -for_h0

    def verdict(self, counts: Sequence[int]) -> str | None:
        """ "H1" (the candidate is at least elo1 stronger), "H0" (it is not), or None to
        play on."""
        value = self.evidence(counts)
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None


def _mle(frequencies: Sequence[float], score: float) -> list[float]:
    """The distribution on PAIR_SCORES nearest (maximum likelihood) to `frequencies` whose
    expectation is `score`: p_i / (1 + x (a_i - score)) with x the root of
    f(x) = sum p_i (a_i - score) / (1 + x (a_i - score)), which falls as x grows: Newton's
    steps, kept inside the bracket by halving it when a step would leave it."""
    shifted = [a - score for a in PAIR_SCORES]
    low, high = -1.0 / max(shifted), -1.0 / min(shifted)
    x = 0.0
    for _ in range(100):
        terms = [(p, d, 1.0 + x * d) for p, d in zip(frequencies, shifted, strict=True)]
        value = sum(p * d / q for p, d, q in terms)
        if value > 0:
            low = x
        else:
            high = x
        slope = -sum(p * d * d / (q * q) for p, d, q in terms)
        step = x - value / slope
        nearest = step if low < step < high else (low + high) / 2
        if abs(nearest - x) < 1e-15 * max(1.0, abs(x)):
            break
        x = nearest
    return [p / (1.0 + x * d) for p, d in zip(frequencies, shifted, strict=True)]


def gsprt_llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """fishtest's GSPRT log-likelihood ratio of elo1 against elo0 (M. Van den Bergh, "A GSPRT
    for the pentanomial model"; empty cells count as 1e-3 pairs), stopped at
    log(beta / (1 - alpha)) and log((1 - beta) / alpha). Not the platform's test (see the
    module's docstring): bench/sprt.py compares the two."""
    if _check(counts) == 0:
        return 0.0
    regular = [n if n > 0 else 1e-3 for n in counts]
    total = sum(regular)
    frequencies = [n / total for n in regular]
    p0 = _mle(frequencies, logistic_score(elo0))
    p1 = _mle(frequencies, logistic_score(elo1))
    return total * sum(p * math.log(b / a) for p, a, b in zip(frequencies, p0, p1, strict=True))
