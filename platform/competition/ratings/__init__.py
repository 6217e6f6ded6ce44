"""The ladders' ratings behind one seam.

What a rating is (`RatingEstimate`: a value on the Elo scale and its uncertainty), where a
bot starts, what a ranked result does to its seats' ratings, when a rating is provisional
and how it is shown are the answers of one rating system, `SYSTEM`; everything else on
the platform (ladders, leaderboards, API, pages, charts, the demo and the benchmarks)
asks through the functions here and does no rating arithmetic of its own. How a rating
is stored is the platform's (`agon.ratings.stored`). Another system is another module
beside `competition.ratings.glicko` (the platform's) and `competition.ratings.elo` (its
first), named here, and a migration of the ladders app if it stores more.
"""

from __future__ import annotations

from collections.abc import Sequence

from competition.ratings import glicko
from competition.ratings.system import RatingEstimate, RatingSystem

__all__ = [
    "MAX_SEATS",
    "SYSTEM",
    "RatingEstimate",
    "RatingSystem",
    "aged",
    "display",
    "display_change",
    "initial",
    "is_provisional",
    "new_version",
    "ranking_value",
    "update",
]

SYSTEM: RatingSystem = glicko

MAX_SEATS = 6


def initial() -> RatingEstimate:
    """A new bot's rating on a ladder."""
    return SYSTEM.initial()


def update(
    ratings: Sequence[RatingEstimate], ranks: Sequence[int], games: Sequence[int]
) -> list[RatingEstimate]:
    """The ratings of a ranked result's seats after it, in seat order: `ranks` from 1 (best;
    equal ranks tie), `games` the rated games each seat's version played before it."""
    seats = len(ratings)
    if not 2 <= seats <= MAX_SEATS or len(ranks) != seats or len(games) != seats:
        raise ValueError(
            f"need a rating, a rank and a game count for each of 2 to {MAX_SEATS} seats"
        )
    return SYSTEM.update(ratings, ranks, games)


def is_provisional(rating: RatingEstimate, games: int) -> bool:
    """Whether a rating whose version has played `games` rated games is too new to trust:
    the one rule the models, the leaderboards, the API and the charts show."""
    return SYSTEM.is_provisional(rating, games)


def display(rating: RatingEstimate) -> str:
    """A rating as every page, the API and the terminal show it (`1523`)."""
    return SYSTEM.display(rating)


def ranking_value(rating: RatingEstimate) -> float:
    """What every leaderboard ranks by, provisional ratings included (the low end of the
    rating's interval): the one order the pages, the API and the terminal show."""
    return SYSTEM.ranking_value(rating)


def display_change(before: RatingEstimate, after: RatingEstimate) -> str:
    """What a result did to a rating's value, signed and whole (`+12`)."""
    return f"{after.value - before.value:+.0f}"


def aged(rating: RatingEstimate, idle_seconds: float) -> RatingEstimate:
    """A rating after `idle_seconds` without a rated game: an idle bot's uncertainty grows."""
    return SYSTEM.aged(rating, idle_seconds)


def new_version(rating: RatingEstimate) -> RatingEstimate:
    """Where a bot's new version starts from its bot's rating."""
    return SYSTEM.new_version(rating)
