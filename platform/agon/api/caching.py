"""Public lists served from the shared cache for a moment.

The match lists and the leaderboards are the same for everybody and are read far more
often than they change: each page is kept in the cache (Redis in production) for
AGON_LIST_CACHE_SECONDS, 2 s by default, under its URL and the headers it varies on
(`Accept`), and sent with `Cache-Control: max-age` so that a proxy in front may keep it
as long. A finished match then shows in the lists up to that long after it finished; the
match itself, its replay and timeline are never cached. With 16 clients reading the
same pages on the bench machine, a page computed once serves every request of those
seconds (see bench/README.md, "API"). 0 turns it off (the test settings do).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.views.decorators.cache import cache_page

KEY_PREFIX = "agon-api-lists"

View = Callable[..., HttpResponseBase]


def cached_for_everyone(view: View) -> View:
    """`view` answered from the cache for AGON_LIST_CACHE_SECONDS (read at each request)."""

    @functools.wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        seconds = settings.AGON_LIST_CACHE_SECONDS
        if seconds <= 0:
            return view(request, *args, **kwargs)
        cached = cache_page(seconds, key_prefix=KEY_PREFIX)(view)
        return cached(request, *args, **kwargs)

    return answer
