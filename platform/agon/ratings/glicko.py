"""The ladders' Glicko: a rating system (`agon.ratings.system`) whose every rating carries
its uncertainty, a rating deviation (RD) on the Elo scale, after Glickman's Glicko
("Parameter estimation in large dynamic paired comparison experiments", 1999).

- A result is a rating period of its own: each seat meets every other seat of the table
  once, scoring 1 / 0.5 / 0 by their ranks (a tie is half a point in every pair). The
  pairs of a table of n are weighted by PAIR_WEIGHT[n] (1 for two players): a finishing
  order of four says more than one game but less than three independent ones, and full
  weight made the 4-player intervals too narrow to hold the truth 95% of the time
  (`bench/ratings.py`, figures in bench/README.md).
- The deviation shrinks with every result and grows back while a bot is idle
  (`aged`: by IDLE_GROWTH per day's square root, up to START_DEVIATION), as a strength
  not seen for a while is known less well. A new version of a bot keeps its bot's
  rating but is a different program: its deviation goes back up to at least
  NEW_VERSION_DEVIATION, so its first results move it quickly.
- A rating is provisional while its deviation is PROVISIONAL_DEVIATION or more
  (lichess's rule) whatever its game count, and is shown as `value ± 95%`, the 95%
  interval's half-width being 1.96 deviations.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from agon.ratings.system import Rating

START_RATING = 1500.0
START_DEVIATION = 350.0
MIN_DEVIATION = 45.0
"""A floor: a rating never claims to be surer than ± 88. Sequential updates against
opponents whose own ratings are off make the ratings' scale drift (about 10% too wide
after 120 games against near opponents, `bench/ratings.py`), an error the deviation
alone does not count; the floor keeps the intervals honest, and a long-settled rating
still follows a bot whose results change."""
PROVISIONAL_DEVIATION = 110.0
NEW_VERSION_DEVIATION = 150.0
IDLE_GROWTH = 8.0
"""Deviation gained per square root of an idle day: a settled rating (50) turns
provisional (110) after about five months without a game. A bot's code does not change
while it is idle, only the field around it, so this is slower than for people."""
INTERVAL = 1.96
"""Deviations on each side of a rating in its 95% interval."""
PAIR_WEIGHT = {2: 1.0, 3: 0.75, 4: 0.6, 5: 0.5, 6: 0.45}
"""The weight of each pairwise result of a table of this many seats."""

Q = math.log(10.0) / 400.0
SECONDS_PER_DAY = 86_400.0

SUMMARY = (
    f"Glicko: {START_RATING:g} ± {START_DEVIATION:g} deviation at the start, pairwise results "
    f"weighted {', '.join(f'{w:g} at {n}p' for n, w in PAIR_WEIGHT.items() if n <= 4)}; "
    f"provisional while the deviation >= {PROVISIONAL_DEVIATION:g}"
)


def initial() -> Rating:
    return Rating(START_RATING, START_DEVIATION)


def g(deviation: float) -> float:
    """How much an opponent's uncertainty dampens what a result against it says."""
    return 1.0 / math.sqrt(1.0 + 3.0 * (Q * deviation) ** 2 / math.pi**2)


def expected_score(rating: Rating, opponent: Rating) -> float:
    """The chance `rating` beats `opponent`, the opponent's uncertainty included."""
    exponent = -g(_deviation(opponent)) * (rating.value - opponent.value) / 400.0
    return 1.0 / (1.0 + math.pow(10.0, exponent))


def update(ratings: Sequence[Rating], ranks: Sequence[int], games: Sequence[int]) -> list[Rating]:
    weight = PAIR_WEIGHT[len(ratings)]
    afters = []
    for i, rating in enumerate(ratings):
        information = 0.0  # 1 / d^2 of Glicko, per Q^2
        surprise = 0.0
        for j, opponent in enumerate(ratings):
            if i == j:
                continue
            score = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
            expected = expected_score(rating, opponent)
            damping = g(_deviation(opponent))
            information += weight * damping**2 * expected * (1.0 - expected)
            surprise += weight * damping * (score - expected)
        precision = 1.0 / _deviation(rating) ** 2 + Q**2 * information
        afters.append(
            Rating(
                rating.value + Q / precision * surprise,
                max(math.sqrt(1.0 / precision), MIN_DEVIATION),
            )
        )
    return afters


def aged(rating: Rating, idle_seconds: float) -> Rating:
    """The rating after `idle_seconds` without a rated game: as sure as before, less."""
    days = max(idle_seconds, 0.0) / SECONDS_PER_DAY
    deviation = math.sqrt(_deviation(rating) ** 2 + IDLE_GROWTH**2 * days)
    return Rating(rating.value, min(deviation, START_DEVIATION))


def new_version(rating: Rating) -> Rating:
    """The bot's rating for its new version: the same value, unsure again."""
    return Rating(rating.value, max(_deviation(rating), NEW_VERSION_DEVIATION))


def is_provisional(rating: Rating, games: int) -> bool:
    """While the deviation is PROVISIONAL_DEVIATION or more, however many games."""
    return _deviation(rating) >= PROVISIONAL_DEVIATION


def display(rating: Rating) -> str:
    if rating.deviation is None:  # stored by the Elo, before this system
        return f"{rating.value:.0f}"
    return f"{rating.value:.0f} ± {INTERVAL * rating.deviation:.0f}"


def _deviation(rating: Rating) -> float:
    # A rating from a system without one (the Elo's, before the migration) is unknown.
    return START_DEVIATION if rating.deviation is None else rating.deviation
