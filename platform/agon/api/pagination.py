"""Page-numbered lists: `?page=`, and `?page_size=` up to 200 (50 by default)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from django.db.models import QuerySet
from rest_framework import pagination
from rest_framework.views import APIView


class PageNumberPagination(pagination.PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200

    def first_index(self) -> int:
        """The 1-based position of the current page's first item in the whole list."""
        return self.page.start_index() if self.page is not None else 1


def paginate(
    view: APIView, items: QuerySet[Any] | Sequence[Any]
) -> tuple[PageNumberPagination, list[Any]]:
    """The page of `items` the request asks for (404 for a page that does not exist)."""
    paginator = PageNumberPagination()
    page = paginator.paginate_queryset(cast(Any, items), view.request, view=view)
    return paginator, page or []
