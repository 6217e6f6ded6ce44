"""The ladders' Glicko: a rating system (`competition.ratings.system`) whose every rating carries
its uncertainty, a rating deviation (RD) on the Elo scale, after Glickman's Glicko
("Parameter estimation in large dynamic paired comparison experiments", 1999).

- A result is a rating period of its own, read as a Plackett-Luce finishing order (the
  winner picked among all seats with odds by strength, the second among the rest, and
  so on): each seat's rating moves by its score over the stages it was in, by the
  information they carry (`_plackett_luce_terms`). For two seats this is Glicko's own
  update; for more it counts a finishing order for what it says. The pairwise reading
  before it (every pair of seats a game, weighted 0.6 at four seats) weighed a win
  as much as a last place, where under Plackett-Luce the last place says more
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

from competition.ratings.system import RatingEstimate

START_RATING = 1500.0
START_DEVIATION = 350.0
MIN_DEVIATION = {2: 45.0, 3: 35.0, 4: 35.0, 5: 35.0, 6: 35.0}
"""A floor by table size: a rating never claims to be surer than ± 88 on 2-player tables,
± 69 on larger ones. Sequential updates against opponents whose own ratings are off
make the ratings' scale drift (about 10% too wide after 120 games against near
opponents, `bench/ratings.py`), an error the deviation alone does not count; the floor
keeps the intervals honest, and a long-settled rating still follows a bot whose results
change. A finishing order of four says more than a game (about twice the information),
so its ratings settle closer: at 45 they moved on every result by more than their error
(tau 0.933 after 120 games, seed 1, against 0.942 at 35); at 25 the 4-player intervals
held the truth 87% of the time, at 35 96%, and at 35 the 2-player ones 87%."""
PROVISIONAL_DEVIATION = 110.0
NEW_VERSION_DEVIATION = 150.0
IDLE_GROWTH = 8.0
"""Deviation gained per square root of an idle day: a settled rating (50) turns
provisional (110) after about five months without a game. A bot's code does not change
while it is idle, only the field around it, so this is slower than for people."""
INTERVAL = 1.96
"""Deviations on each side of a rating in its 95% interval."""
TABLE_WEIGHT = {2: 1.0, 3: 0.9, 4: 0.9, 5: 0.9, 6: 0.9}
"""The weight of a result of a table of this many seats, on its Plackett-Luce score and
information. Under 1 past two seats, as each seat's update takes the others' ratings
for true at once: at four seats 0.8 / 0.9 / 1 / 1.25 held the truth in 99% / 98% /
97% / 83% of the 95% intervals after 120 games (seed 1), tau alike within noise.
Three, five and six seats are not simulated and take four's weight."""

Q = math.log(10.0) / 400.0
SECONDS_PER_DAY = 86_400.0

SUMMARY = (
    f"Glicko: {START_RATING:g} ± {START_DEVIATION:g} deviation at the start, Plackett-Luce "
    f"orders weighted {', '.join(f'{w:g} at {n}p' for n, w in TABLE_WEIGHT.items() if n <= 4)}; "
    f"provisional while the deviation >= {PROVISIONAL_DEVIATION:g}"
)


def initial() -> RatingEstimate:
    return RatingEstimate(START_RATING, START_DEVIATION)


def g(deviation: float) -> float:
    """How much an opponent's uncertainty dampens what a result against it says."""
    return 1.0 / math.sqrt(1.0 + 3.0 * (Q * deviation) ** 2 / math.pi**2)


def expected_score(rating: RatingEstimate, opponent: RatingEstimate) -> float:
    """The chance `rating` beats `opponent`, the opponent's uncertainty included."""
    exponent = -g(_deviation(opponent)) * (rating.value - opponent.value) / 400.0
    return 1.0 / (1.0 + math.pow(10.0, exponent))


def update(
    ratings: Sequence[RatingEstimate], ranks: Sequence[int], games: Sequence[int]
) -> list[RatingEstimate]:
    weight = TABLE_WEIGHT[len(ratings)]
    afters = []
    for i, rating in enumerate(ratings):
        surprise, information = _plackett_luce_terms(i, ratings, ranks)
        precision = 1.0 / _deviation(rating) ** 2 + Q**2 * weight * information
        afters.append(
            RatingEstimate(
                rating.value + Q / precision * weight * surprise,
                max(math.sqrt(1.0 / precision), MIN_DEVIATION[len(ratings)]),
            )
        )
    return afters


def _plackett_luce_terms(
    seat: int, ratings: Sequence[RatingEstimate], ranks: Sequence[int]
) -> tuple[float, float]:
    """What a finishing order says about one seat's strength, under Plackett-Luce (the
    winner is picked among all seats with odds by strength, the second among the rest,
    and so on): the score (how much better the seat did than expected) and the Fisher
    information (per Q^2), summed over the stages the seat was still in.

    Opponents count by their rating drawn toward the seat's by Glicko's g of their
    deviation, and each stage's score and information are damped by g as Glicko does
    for a game (the stage's g the average of the others', by their chances). Seats of
    equal rank share their stages (each counts 1/ties), as Weng and Lin do ("A Bayesian
    approximation method for online ranking", 2011): a tie between two is half a point.
    For two seats this is exactly Glicko's update for one game."""
    own = ratings[seat].value
    strengths = [
        1.0 if j == seat else math.exp(Q * g(_deviation(other)) * (other.value - own))
        for j, other in enumerate(ratings)
    ]
    dampings = [g(_deviation(other)) for other in ratings]
    surprise = information = 0.0
    for chosen, rank in enumerate(ranks):
        if rank > ranks[seat]:
            continue  # the seat had finished before this stage
        left = [j for j, other_rank in enumerate(ranks) if other_rank >= rank]
        ties = sum(1 for other_rank in ranks if other_rank == rank)
        total = sum(strengths[j] for j in left)
        share = 1.0 / total
        others = [j for j in left if j != seat]
        if not others:
            continue
        damping = sum(strengths[j] * dampings[j] for j in others) / (total - 1.0)
        picked = 1.0 if chosen == seat else 0.0
        surprise += damping * (picked - share) / ties
        information += damping**2 * share * (1.0 - share) / ties
    return surprise, information


def aged(rating: RatingEstimate, idle_seconds: float) -> RatingEstimate:
    """The rating after `idle_seconds` without a rated game: as sure as before, less."""
    days = max(idle_seconds, 0.0) / SECONDS_PER_DAY
    deviation = math.sqrt(_deviation(rating) ** 2 + IDLE_GROWTH**2 * days)
    return RatingEstimate(rating.value, min(deviation, START_DEVIATION))


def new_version(rating: RatingEstimate) -> RatingEstimate:
    """The bot's rating for its new version: the same value, unsure again."""
    return RatingEstimate(rating.value, max(_deviation(rating), NEW_VERSION_DEVIATION))


def is_provisional(rating: RatingEstimate, games: int) -> bool:
    """While the deviation is PROVISIONAL_DEVIATION or more, however many games."""
    return _deviation(rating) >= PROVISIONAL_DEVIATION


def ranking_value(rating: RatingEstimate) -> float:
    """The low end of the interval `display` shows: a new bot (1500 ± 686) ranks at 814,
    below every bot that has shown anything, and climbs as its games narrow the interval.
    A provisional bot with a high value then ranks where its few games justify, neither
    first on a lucky start (as ranking by value would) nor last whatever it did (as
    listing the provisional after the settled did). TrueSkill's leaderboards rank by
    mu - 3 sigma for the same reason."""
    return rating.value - INTERVAL * _deviation(rating)


def display(rating: RatingEstimate) -> str:
    if rating.deviation is None:  # stored by the Elo, before this system
        return f"{rating.value:.0f}"
    return f"{rating.value:.0f} ± {INTERVAL * rating.deviation:.0f}"


def _deviation(rating: RatingEstimate) -> float:
    # A rating from a system without one (the Elo's, before the migration) is unknown.
    return START_DEVIATION if rating.deviation is None else rating.deviation
