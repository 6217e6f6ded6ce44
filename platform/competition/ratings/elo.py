"""The ladders' Elo: a rating system (`competition.ratings.system`) for ranked results of two to
six seats, updated pairwise from the ranking. It has no uncertainty: a rating is
provisional by its version's game count instead.

Each pair of players in a match is scored 1 / 0.5 / 0 by their ranks against the Elo
expectation; a player's K is divided by (players - 1) so a 4-player match moves a rating
about as far as one 2-player game.

New players use a larger K while provisional, falling in equal steps to K_FACTOR over
their first PROVISIONAL_GAMES games: the first games place a bot roughly, the later ones
refine. A flat provisional K did worse (`bench/ratings.py`, figures in bench/README.md):
as opponents are near in rating, ratings spread out to the true scale only slowly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from competition.ratings.system import RatingEstimate

START_RATING = 1500.0
K_FACTOR = 32.0
PROVISIONAL_K_FACTOR = 192.0
PROVISIONAL_GAMES = 20

SUMMARY = (
    f"Elo: K {PROVISIONAL_K_FACTOR:g} at a version's first game, falling in equal steps to "
    f"{K_FACTOR:g} after its {PROVISIONAL_GAMES} provisional games"
)


def initial() -> RatingEstimate:
    return RatingEstimate(START_RATING)


def update(
    ratings: Sequence[RatingEstimate], ranks: Sequence[int], games: Sequence[int]
) -> list[RatingEstimate]:
    deltas = rating_changes([rating.value for rating in ratings], ranks, games)
    return [
        RatingEstimate(rating.value + delta) for rating, delta in zip(ratings, deltas, strict=True)
    ]


def is_provisional(rating: RatingEstimate, games: int) -> bool:
    """A version's first PROVISIONAL_GAMES games, whatever its rating."""
    return games < PROVISIONAL_GAMES


def ranking_value(rating: RatingEstimate) -> float:
    return rating.value


def display(rating: RatingEstimate) -> str:
    return f"{rating.value:.0f}"


def aged(rating: RatingEstimate, idle_seconds: float) -> RatingEstimate:
    return rating


def new_version(rating: RatingEstimate) -> RatingEstimate:
    """The same rating: the version's game count makes it provisional again."""
    return rating


def expected_score(rating: float, opponent: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def k_factor(games_played: int) -> float:
    """PROVISIONAL_K_FACTOR at the first game, then a step of 1/PROVISIONAL_GAMES of the way
    down to K_FACTOR after each game: K_FACTOR once the bot is no longer provisional."""
    provisional_left = max(PROVISIONAL_GAMES - games_played, 0) / PROVISIONAL_GAMES
    return K_FACTOR + (PROVISIONAL_K_FACTOR - K_FACTOR) * provisional_left


def rating_changes(
    ratings: Sequence[float], ranks: Sequence[int], games_played: Sequence[int]
) -> list[float]:
    """The change of each seat's rating after a match (rank 1 is best; equal ranks draw),
    for seats as `competition.ratings.update` checks them."""
    players = len(ratings)
    changes = []
    for i in range(players):
        total = 0.0
        for j in range(players):
            if i == j:
                continue
            actual = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
            total += actual - expected_score(ratings[i], ratings[j])
        changes.append(k_factor(games_played[i]) / (players - 1) * total)
    return changes
