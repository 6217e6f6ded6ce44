"""Lists the API reads a page at a time in plain SQL, for its busiest endpoints (the match
lists and the leaderboards).

A `Listing` is what Django's paginator takes instead of a queryset: it counts itself and
reads a slice, each in one statement, and gives plain rows. Through querysets, the same
pages cost several times the Python: every query compiled anew from expressions, a model
instance built for every row, prefetches that compile an expression per key (see
bench/README.md, "API").

A page's keys are read first, from an index alone, and then its rows by key: a deep page
skips index entries rather than table rows, and only the page's rows are joined to what
they show.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import UTC, datetime, tzinfo
from typing import Generic, TypeVar

from django.db import connection

Row = TypeVar("Row")
Value = int | str | bool
"""A parameter of a listing's statements."""


class Listing(ABC, Generic[Row]):
    """Rows of `table` that satisfy every condition of `where` (SQL made of fixed text,
    whose values are the `params`), read a page at a time."""

    def __init__(self, table: str, where: Sequence[str], params: Sequence[Value]) -> None:
        self.table = table
        self.where = " WHERE " + " AND ".join(where) if where else ""
        self.params = list(params)

    @property
    def count_key(self) -> str:
        """Equal for equal lists: the key under which their count may be kept."""
        return f"{self.table}{self.where}:{self.params}"

    def count(self) -> int:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT count(*) FROM {self.table}{self.where}", self.params)  # noqa: S608
            (total,) = cursor.fetchone()
        return int(total)

    def __getitem__(self, page: slice) -> list[Row]:
        start = page.start or 0
        if page.stop is None or page.step is not None or start < 0 or page.stop < start:
            raise ValueError("a listing is read a bounded page at a time")
        with connection.cursor() as cursor:
            cursor.execute(*self.page_sql(start, page.stop))
            rows = cursor.fetchall()
        return self.rows(rows, start)

    counted_with_page = False
    """Whether `page_and_count` reads a page and the list's length in one statement (a
    short list's: it is counted in full for every page)."""

    def page_and_count(self, start: int, stop: int) -> tuple[list[Row], int | None]:
        """The rows from `start` to `stop` and the list's length, None when the page is
        empty (past the end, or the list is): `count` then."""
        raise NotImplementedError(f"{type(self).__name__} counts apart from its pages")

    @abstractmethod
    def page_sql(self, start: int, stop: int) -> tuple[str, list[Value]]:
        """The statement that reads the rows from `start` to `stop` (not included)."""

    @abstractmethod
    def rows(self, fetched: list[tuple[object, ...]], start: int) -> list[Row]:
        """The page's rows, from what its statement fetched."""


def aware(moment: datetime | str) -> datetime:
    """A timestamp of a raw row as the ORM gives it: PostgreSQL's are aware already;
    SQLite's come naive in UTC (or as text, where no converter applied)."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def api_datetime(moment: datetime, zone: tzinfo) -> str:
    """A timestamp as DRF's DateTimeField writes it in the time zone `zone` (the current
    one): ISO 8601, `Z` for UTC."""
    text = moment.astimezone(zone).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text
