"""The statistics themselves, from counts the database gave: plain functions, no Django.

- A seat's win rate counts a win (first alone) as 1 and a first place shared by k seats
  as 1/k (a two-seat tie is half a win, as in chess); everything else as 0. Its interval
  is Wilson's score interval at 95 % on that rate, which stays inside [0, 1] and is not
  degenerate at 0 or n successes (a clean sweep, a seat that never won).
- A distribution (game lengths, final scores) is cut into at most MAX_BINS bins of a round
  width, from counts per value.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""
MAX_BINS = 16


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a rate of `successes` in `trials` ((0, 1) without trials)."""
    if trials <= 0:
        return 0.0, 1.0
    rate = successes / trials
    spread = z * z / trials
    centre = (rate + spread / 2) / (1 + spread)
    half = z * math.sqrt(rate * (1 - rate) / trials + spread / (4 * trials)) / (1 + spread)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Outcomes:
    """How a seat (or an opening) did over `played` matches: `wins` alone first, and
    `shared` first places with the credit they bring (`credit`, 1/k each)."""

    played: int = 0
    wins: int = 0
    shared: int = 0
    credit: float = 0.0

    def add(self, *, first: bool, firsts: int, count: int) -> Outcomes:
        """These outcomes and `count` more matches in which the seat was first or not,
        with `firsts` seats first in each."""
        if not first:
            return Outcomes(self.played + count, self.wins, self.shared, self.credit)
        if firsts <= 1:
            return Outcomes(self.played + count, self.wins + count, self.shared, self.credit)
        return Outcomes(
            self.played + count, self.wins, self.shared + count, self.credit + count / firsts
        )

    @property
    def score(self) -> float:
        return self.wins + self.credit

    @property
    def rate(self) -> float | None:
        return self.score / self.played if self.played else None

    def interval(self) -> tuple[float, float] | None:
        return wilson_interval(self.score, self.played) if self.played else None


def outcomes_of(rows: Iterable[tuple[bool, int, int]]) -> Outcomes:
    """Outcomes from `(first, firsts in the match, count)` rows."""
    found = Outcomes()
    for first, firsts, count in rows:
        found = found.add(first=first, firsts=firsts, count=count)
    return found


@dataclass(frozen=True)
class Bin:
    low: int
    high: int
    """Inclusive: the bin holds the values from `low` to `high`."""
    count: int


def bin_width(low: int, high: int, max_bins: int = MAX_BINS) -> int:
    """The smallest round width (1, 2, 5 times a power of ten) that cuts the values from
    `low` to `high` into at most `max_bins` bins aligned on its multiples."""
    power = 1
    while True:
        for factor in (1, 2, 5):
            width = factor * power
            if high // width - low // width + 1 <= max_bins:
                return width
        power *= 10


def histogram(counts: Sequence[tuple[int, int]], max_bins: int = MAX_BINS) -> list[Bin]:
    """`(value, how many)` counts cut into at most `max_bins` bins of one round width,
    aligned on its multiples; every bin from the lowest value's to the highest's is
    given, empty ones too. No counts, no bins."""
    present = [(value, count) for value, count in counts if count > 0]
    if not present:
        return []
    low = min(value for value, _ in present)
    high = max(value for value, _ in present)
    width = bin_width(low, high, max_bins)
    first = (low // width) * width
    number = (high - first) // width + 1
    totals = [0] * number
    for value, count in present:
        totals[(value - first) // width] += count
    return [
        Bin(first + index * width, first + (index + 1) * width - 1, total)
        for index, total in enumerate(totals)
    ]


def mean_of(counts: Sequence[tuple[int, int]]) -> float | None:
    total = sum(count for _, count in counts)
    if not total:
        return None
    return sum(value * count for value, count in counts) / total


def median_of(counts: Sequence[tuple[int, int]]) -> float | None:
    """The median of the values, each `count` times."""
    total = sum(count for _, count in counts)
    if not total:
        return None
    ordered = sorted((value, count) for value, count in counts if count > 0)
    middle = [(total - 1) // 2, total // 2]
    found: list[int] = []
    seen = 0
    for value, count in ordered:
        while len(found) < 2 and middle[len(found)] < seen + count:
            found.append(value)
        seen += count
    return (found[0] + found[1]) / 2
