"""What the views share: pagination and signed-in users."""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.paginator import Page, Paginator
from django.http import HttpRequest

T = TypeVar("T")


def paginate(request: HttpRequest, items: Any, per_page: int) -> Page[Any]:
    """The page of `items` the request's `?page=` asks for (the last one if beyond)."""
    return Paginator(items, per_page).get_page(request.GET.get("page"))


def signed_in(request: HttpRequest) -> User:
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied("sign in first")
    return user


def page_query(request: HttpRequest) -> str:
    """The request's query without `page`, for links to other pages of a list."""
    query = request.GET.copy()
    query.pop("page", None)
    return query.urlencode()
