"""Page-numbered lists: `?page=`, and `?page_size=` up to 200 (50 by default); anything
but a whole number in those bounds is a 400, a page past the end a 404.

Every page needs the list's length (the `count`, the `next` link, the last page). Counting
is cheap for a short list but not for a long one: PostgreSQL reads every row's index
entry, about 15 ms for the 200,000 matches of `bench/api.py` on an idle core, more than
the page itself. A long list's count is therefore kept for a few seconds: it may then lag
behind the list by the matches of those seconds, but not by more. It is kept in each
web process's memory, not in the shared cache: a look-up there is a round trip to Redis
and a new client object in Django (0.3-0.4 ms, a tenth of a page of matches), paid by
every page, short lists too, while a process counts a long list at most once in
COUNT_SECONDS.

A deep page (OFFSET in the thousands) skips its rows in two steps: the keys of the page
are found in an index alone, then only the page's rows are read. Read in one step, the
rows skipped were each fetched from the table: 45 ms for a page 150,000 matches deep on
the bench machine, 15 ms in two.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, cast

from django.core.cache.backends.locmem import LocMemCache
from django.core.exceptions import EmptyResultSet
from django.core.paginator import EmptyPage, Page, PageNotAnInteger, Paginator
from django.db.models import QuerySet
from rest_framework import exceptions, pagination
from rest_framework.request import Request
from rest_framework.views import APIView

from agon.listings import Listing

LONG_LIST = 10_000
"""Lists at least this long have their count cached."""
COUNT_SECONDS = 30
COUNTS = LocMemCache(
    "agon-api-counts", {"TIMEOUT": COUNT_SECONDS, "OPTIONS": {"MAX_ENTRIES": 1000}}
)
"""The counts of long lists, in this process."""
DEEP_OFFSET = 1_000
"""Pages starting this far in find their keys first."""

if TYPE_CHECKING:
    _Paginator = Paginator[Any]
else:
    _Paginator = Paginator  # not subscriptable at run time


class CachedCountPaginator(_Paginator):
    """Django's paginator, with the count of a long queryset or `Listing` kept for
    COUNT_SECONDS under a key made from its SQL and parameters (the same filters, the same
    key), and deep pages of a queryset read by their keys (a `Listing` does that itself)."""

    def page(self, number: int | str) -> Page[Any]:
        items = self.object_list
        if (
            isinstance(items, Listing)
            and items.counted_with_page
            and not self.orphans
            and COUNTS.get(_count_key(items.count_key)) is None
        ):
            return self._page_and_count(items, number)
        if not isinstance(items, QuerySet):
            return super().page(number)
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if top + self.orphans >= self.count:
            top = self.count
        if bottom < DEEP_OFFSET:
            return Page(items[bottom:top], number, self)
        # The same query, ordered as before, for the keys of the page only.
        keys = items.values("pk")[bottom:top]
        return Page(items.filter(pk__in=keys), number, self)

    def _page_and_count(self, items: Listing[Any], asked: int | str) -> Page[Any]:
        """The page, and the count from the same statement; an empty page is counted
        apart, to tell an empty list's first page from a page past the end (404). A long
        list's count is kept as `count` keeps it, and its next pages read apart from it."""
        try:
            number = int(asked)
        except (TypeError, ValueError) as error:
            raise PageNotAnInteger("That page number is not an integer") from error
        if number < 1:
            raise EmptyPage("That page number is less than 1")
        bottom = (number - 1) * self.per_page
        rows, count = items.page_and_count(bottom, bottom + self.per_page)
        if count is not None:
            self.__dict__["count"] = count  # the cached property's value
            if count >= LONG_LIST:
                COUNTS.set(_count_key(items.count_key), count)
        return Page(rows, self.validate_number(number), self)

    @cached_property
    def count(self) -> int:
        items = self.object_list
        if isinstance(items, QuerySet):
            try:
                sql, params = items.query.sql_with_params()
            except EmptyResultSet:
                return 0  # `.none()`, or a filter nothing can pass: no SQL to run
            key = repr((sql, params))
        elif isinstance(items, Listing):
            key = items.count_key
        else:
            return len(items)
        key = _count_key(key)
        cached = COUNTS.get(key)
        if isinstance(cached, int):
            return cached
        count = items.count()
        if count >= LONG_LIST:
            COUNTS.set(key, count)
        return count


def _count_key(list_key: str) -> str:
    return "agon:api:count:" + hashlib.sha256(list_key.encode()).hexdigest()


def _whole_number(request: Request, name: str, *, maximum: int | None = None) -> int | None:
    """The query's `name` as a whole number from 1 (to `maximum`), None when absent; 400
    for anything else, as the schema says (DRF would silently use its default)."""
    text = request.query_params.get(name)
    if text is None:
        return None
    if not text.isdigit() or int(text) < 1 or (maximum is not None and int(text) > maximum):
        bounds = f"from 1 to {maximum}" if maximum is not None else "from 1"
        raise exceptions.ValidationError({name: [f"a whole number {bounds}, not {text!r}"]})
    return int(text)


class PageNumberPagination(pagination.PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200
    django_paginator_class = CachedCountPaginator
    last_page_strings = ()  # `?page=last` is not in the schema: a page is a number

    def get_page_size(self, request: Request) -> int:
        size = _whole_number(request, self.page_size_query_param, maximum=self.max_page_size)
        return size if size is not None else int(self.page_size or 50)

    def paginate_queryset(
        self, queryset: Any, request: Request, view: APIView | None = None
    ) -> list[Any] | None:
        _whole_number(request, self.page_query_param)  # malformed: 400; past the end: 404
        return super().paginate_queryset(queryset, request, view)

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"]["maximum"] = self.max_page_size
        return parameters


def paginate(
    view: APIView, items: QuerySet[Any] | Sequence[Any] | Listing[Any]
) -> tuple[PageNumberPagination, list[Any]]:
    """The page of `items` the request asks for (404 for a page that does not exist)."""
    paginator = PageNumberPagination()
    page = paginator.paginate_queryset(cast(Any, items), view.request, view=view)
    return paginator, page or []
