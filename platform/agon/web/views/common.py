"""What the views share: pagination and signed-in users."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.paginator import Page, Paginator
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.urls import reverse

T = TypeVar("T")


def paginate(request: HttpRequest, items: Any, per_page: int) -> Page[Any]:
    """The page of `items` the request's `?page=` asks for (the last one if beyond)."""
    return Paginator(items, per_page).get_page(request.GET.get("page"))


def paginate_as(request: HttpRequest, items: Any, per_page: int, name: str) -> Page[Any]:
    """`paginate` for one of several lists on a page, its page number in `?<name>=`."""
    return Paginator(items, per_page).get_page(request.GET.get(name))


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


View = Callable[..., HttpResponse]


def post_form(page: str, *arguments: str) -> Callable[[View], View]:
    """`require_POST` for a page form's address, except that a GET (a bookmark, a reload,
    a shared link) is sent to the page holding the form, `page`, with the URL `arguments`
    it takes, rather than answered with a blank 405."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in ("GET", "HEAD"):
                return HttpResponseRedirect(
                    reverse(page, kwargs={name: kwargs[name] for name in arguments})
                )
            if request.method != "POST":
                return HttpResponseNotAllowed(["POST"])
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
