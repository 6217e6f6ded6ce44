"""What a rating is, and what a rating system must answer about one.

A `RatingEstimate` is an estimate of a bot's strength on one ladder: a value on the Elo
scale (what the leaderboards sort by) and, for a system that has one, its uncertainty on
the same scale (the ladders' stored row of it is `agon.ladders.models.Rating`). A
`RatingSystem` says where a bot starts, what a ranked result does to the ratings of its
seats, when a rating is still provisional, how a rating is shown, how it ages while its
bot is idle and where a bot's new version starts. A system is a module with these names
(`competition.ratings.elo` is one); `competition.ratings` names the one the platform uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class RatingEstimate:
    value: float
    """On the Elo scale: 1500 is a new bot's, 400 more is 10:1 odds of winning."""
    deviation: float | None = None
    """The uncertainty of `value`, on the same scale; None for a system without one."""


class RatingSystem(Protocol):
    SUMMARY: str
    """One line on how the system rates, for the benchmarks and the demo."""

    def initial(self) -> RatingEstimate:
        """A new bot's rating on a ladder."""

    def update(
        self, ratings: Sequence[RatingEstimate], ranks: Sequence[int], games: Sequence[int]
    ) -> list[RatingEstimate]:
        """The seats' ratings after a ranked result: rank 1 is best, equal ranks tie;
        `games` are the rated games each seat's bot version has played before this one.
        The seats come checked: 2 to 6 of them, a rank and a game count for each."""

    def is_provisional(self, rating: RatingEstimate, games: int) -> bool:
        """Whether a rating is too new to trust, its version having played `games`."""

    def display(self, rating: RatingEstimate) -> str:
        """The rating as the pages, the API and the terminal show it."""

    def ranking_value(self, rating: RatingEstimate) -> float:
        """What leaderboards rank by: a value the rating is all but sure to reach (a
        system without an uncertainty gives its value)."""

    def aged(self, rating: RatingEstimate, idle_seconds: float) -> RatingEstimate:
        """The rating after `idle_seconds` without a rated game (a system whose ratings
        do not age gives it back)."""

    def new_version(self, rating: RatingEstimate) -> RatingEstimate:
        """A bot's rating as its new version starts from it."""
