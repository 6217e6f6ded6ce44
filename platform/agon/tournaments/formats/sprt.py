"""Version tests: fishtest's sequential probability ratio test on pairs of games.

Games come in pairs on one seed with the seats swapped, and a pair's score for the candidate
(0, 1/2, 1, 3/2 or 2 points) is one draw from a pentanomial distribution. The test weighs
H0: the candidate is `elo0` stronger against H1: `elo1` stronger, in logistic Elo (a score
s is worth -400 log10(1/s - 1)). As in fishtest (M. Van den Bergh, "A GSPRT for the
pentanomial model"), the log-likelihood ratio compares the maximum-likelihood pentanomial
distributions whose expected score is that of elo0 and of elo1, each found from the
observed frequencies by solving one monotone equation; empty outcomes count as 1e-3 pairs.
The test stops at log(beta / (1 - alpha)) (H0) or log((1 - beta) / alpha) (H1).

The Elo estimate and its 95% interval come from the mean pair score and its standard error
(pairs, not games, are the independent draws), clamped to +-ELO_CLAMP.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The five outcomes of a pair as a fraction of its two points."""
REGULARIZATION = 1e-3
ELO_CLAMP = 1000.0
Z95 = NormalDist().inv_cdf(0.975)


def logistic_score(elo: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def logistic_elo(score: float) -> float:
    if score <= 0.0:
        return -ELO_CLAMP
    if score >= 1.0:
        return ELO_CLAMP
    return max(-ELO_CLAMP, min(ELO_CLAMP, -400.0 * math.log10(1.0 / score - 1.0)))


def pair_outcome(points: float) -> int:
    """The pentanomial cell of a pair in which the candidate scored `points` of 2."""
    cell = round(2 * points)
    if not 0 <= cell <= 4:
        raise ValueError(f"a pair scores 0 to 2 points, not {points}")
    return cell


@dataclass(frozen=True)
class EloEstimate:
    elo: float
    low: float
    high: float


def elo_estimate(counts: Sequence[int]) -> EloEstimate:
    """Elo difference and its 95% interval from pentanomial counts."""
    pairs = sum(counts)
    if pairs == 0:
        return EloEstimate(0.0, -ELO_CLAMP, ELO_CLAMP)
    mean = sum(n * a for n, a in zip(counts, PAIR_SCORES, strict=True)) / pairs
    variance = sum(n * (a - mean) ** 2 for n, a in zip(counts, PAIR_SCORES, strict=True)) / pairs
    error = Z95 * math.sqrt(variance / pairs)
    return EloEstimate(logistic_elo(mean), logistic_elo(mean - error), logistic_elo(mean + error))


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


def llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """fishtest's log-likelihood ratio of H1 (elo1) against H0 (elo0) for the counts."""
    if len(counts) != len(PAIR_SCORES):
        raise ValueError("pentanomial counts are five numbers")
    if sum(counts) == 0:
        return 0.0
    regular = [n if n > 0 else REGULARIZATION for n in counts]
    total = sum(regular)
    frequencies = [n / total for n in regular]
    p0 = _mle(frequencies, logistic_score(elo0))
    p1 = _mle(frequencies, logistic_score(elo1))
    return total * sum(p * math.log(b / a) for p, a, b in zip(frequencies, p0, p1, strict=True))


@dataclass(frozen=True)
class Sprt:
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("alpha and beta are probabilities between 0 and 1")
        if not self.elo0 < self.elo1:
            raise ValueError("elo0 must be below elo1")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[int]) -> float:
        return llr(counts, self.elo0, self.elo1)

    def verdict(self, counts: Sequence[int]) -> str | None:
        """ "H1" (the candidate is elo1 stronger), "H0", or None to play on."""
        value = self.llr(counts)
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None
