"""Elo ratings for matches of two to four players, updated pairwise from the ranking.

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

START_RATING = 1500.0
K_FACTOR = 32.0
PROVISIONAL_K_FACTOR = 192.0
PROVISIONAL_GAMES = 20


def is_provisional(version_games: int) -> bool:
    """Whether a rating whose current version has played `version_games` rated games is
    still provisional: the one rule the model, the leaderboards and the charts show."""
    return version_games < PROVISIONAL_GAMES


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
    """The change of each seat's rating after a match (rank 1 is best; equal ranks draw)."""
    players = len(ratings)
    if players < 2 or len(ranks) != players or len(games_played) != players:
        raise ValueError("need a rating, a rank and a game count for each of 2+ players")
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
