"""How ratings are stored: the columns of a rating on a ladder's `Rating` row and of the
before and after of each `RatingChange`, as abstract models the ladders' models inherit.
Imported by models only (defining a model needs the apps loaded), unlike the rest of
`agon.ratings`, which the demo and the benchmarks use without Django.

A rating is stored as plain columns, not as one JSON document: its value is what every
leaderboard sorts by (in the `leaderboard` index) and its uncertainty is shown beside it
on every page, so both are typed numbers a query can order and read. Today's Elo has no
uncertainty and leaves `deviation` empty; a system with one (a Glicko rating deviation)
fills it without a new column. A system with more state (a volatility, the time of the
last rated game) adds its columns here, in `RATING_COLUMNS` and in `rating_of`, and a
migration of the ladders app; nothing outside this package reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import models

from agon import ratings
from agon.ratings.system import Rating

RATING_COLUMNS = ("rating", "deviation")
"""A `RatedColumns` row's columns of its rating, in the order `rating_of` reads them."""

RATING_CHANGE_COLUMNS = ("before", "deviation_before", "after", "deviation_after")
"""A `RatingChangeColumns` row's columns of the ratings before and after its result."""

BEST_FIRST = ("-rating",)
"""The columns a leaderboard orders by, best first (ties are the ladders' to break)."""


def rating_of(columns: Sequence[Any]) -> Rating:
    """A rating from its RATING_COLUMNS' values, in their order."""
    value, deviation = columns
    return Rating(value, deviation)


def initial_value() -> float:
    return ratings.initial().value


def initial_deviation() -> float | None:
    return ratings.initial().deviation


class RatedColumns(models.Model):
    """A bot's current rating on a ladder."""

    rating = models.FloatField(default=initial_value)
    """The rating's value, on the Elo scale."""
    deviation = models.FloatField(null=True, blank=True, default=initial_deviation)
    """Its uncertainty on the same scale; empty for a system without one (Elo)."""

    class Meta:
        abstract = True

    @property
    def current(self) -> Rating:
        return rating_of([getattr(self, column) for column in RATING_COLUMNS])

    @current.setter
    def current(self, rating: Rating) -> None:
        self.rating, self.deviation = rating.value, rating.deviation

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
    def rating_before(self) -> Rating:
        return Rating(self.before, self.deviation_before)

    @property
    def rating_after(self) -> Rating:
        return Rating(self.after, self.deviation_after)

    def record(self, before: Rating, after: Rating) -> None:
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
