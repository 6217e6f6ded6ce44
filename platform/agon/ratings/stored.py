"""How ratings are stored: the columns of a rating on a ladder's `Rating` row and of the
before and after of each `RatingChange`, as abstract models the ladders' models inherit.
Imported by models only (defining a model needs the apps loaded), unlike the rest of
`competition.ratings`, which the demo and the benchmarks use without Django.

A rating is stored as plain columns, not as one JSON document: its value is what every
leaderboard sorts by (in the `leaderboard` index) and its uncertainty is shown beside it
on every page, so both are typed numbers a query can order and read. The Elo had no
uncertainty and left `deviation` empty; the Glicko fills it. Beside them, the time the
deviation was brought up to date (`deviation_at`: the uncertainty grows while a bot is
idle), the value leaderboards rank by (`ranking`: the low end of the rating's interval,
`competition.ratings.ranking_value`, kept beside the rating so an index can order by it) and
whether the rating is settled (`rankable`: not provisional, shown as a mark). A system
with more state (a volatility) adds its columns here, in `RATING_COLUMNS` and in
`rating_of`, and a migration of the ladders app; nothing outside this package reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import models

from competition import ratings
from competition.ratings.system import RatingEstimate

RATING_COLUMNS = ("rating", "deviation")
SETTLED_COLUMNS = (*RATING_COLUMNS, "ranking", "deviation_at", "rankable")
"""The columns `RatedColumns.settle` writes."""
"""A `RatedColumns` row's columns of its rating, in the order `rating_of` reads them."""

RATING_CHANGE_COLUMNS = ("before", "deviation_before", "after", "deviation_after")
"""A `RatingChangeColumns` row's columns of the ratings before and after its result."""

BEST_FIRST = ("-ranking", "-rating")
"""The columns a leaderboard orders by, best first (ties are the ladders' to break): the
value ratings rank by, provisional ones included, then the rating's value."""


def rating_of(columns: Sequence[Any]) -> RatingEstimate:
    """A rating from its RATING_COLUMNS' values, in their order."""
    value, deviation = columns
    return RatingEstimate(value, deviation)


def initial_value() -> float:
    return ratings.initial().value


def initial_deviation() -> float | None:
    return ratings.initial().deviation


def initial_ranking() -> float:
    return ratings.ranking_value(ratings.initial())


class RatedColumns(models.Model):
    """A bot's current rating on a ladder."""

    rating = models.FloatField(default=initial_value)
    """The rating's value, on the Elo scale."""
    deviation = models.FloatField(null=True, blank=True, default=initial_deviation)
    """Its uncertainty on the same scale; empty for a system without one (Elo)."""
    deviation_at = models.DateTimeField(null=True, blank=True)
    """When `deviation` was last brought up to date: a rated game or the idle ageing."""
    ranking = models.FloatField(default=initial_ranking)
    """What leaderboards rank by (`competition.ratings.ranking_value` of the rating); set
    with it."""
    rankable = models.BooleanField(default=False)
    """Settled (not provisional): the leaderboards mark the others."""

    class Meta:
        abstract = True

    @property
    def current(self) -> RatingEstimate:
        return rating_of([getattr(self, column) for column in RATING_COLUMNS])

    @current.setter
    def current(self, rating: RatingEstimate) -> None:
        self.rating, self.deviation = rating.value, rating.deviation
        self.ranking = ratings.ranking_value(rating)

    def settle(self, rating: RatingEstimate, *, games: int, at: datetime) -> None:
        """Store `rating`, brought up to date `at`, for a version that played `games`."""
        self.current = rating
        self.deviation_at = at
        self.rankable = not ratings.is_provisional(rating, games)

    def idle_seconds(self, now: datetime) -> float:
        """How long the stored deviation has gone without an update."""
        return 0.0 if self.deviation_at is None else (now - self.deviation_at).total_seconds()

    @property
    def shown(self) -> str:
        return ratings.display(self.current)


class RatingChangeColumns(models.Model):
    """What one rated result did to one rating: the rating before and after it."""

    before = models.FloatField()
    deviation_before = models.FloatField(null=True, blank=True)
    after = models.FloatField()
    deviation_after = models.FloatField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def rating_before(self) -> RatingEstimate:
        return RatingEstimate(self.before, self.deviation_before)

    @property
    def rating_after(self) -> RatingEstimate:
        return RatingEstimate(self.after, self.deviation_after)

    def record(self, before: RatingEstimate, after: RatingEstimate) -> None:
        self.before, self.deviation_before = before.value, before.deviation
        self.after, self.deviation_after = after.value, after.deviation

    @property
    def shown_before(self) -> str:
        return ratings.display(self.rating_before)

    @property
    def shown_after(self) -> str:
        return ratings.display(self.rating_after)

    @property
    def shown_change(self) -> str:
        return ratings.display_change(self.rating_before, self.rating_after)
