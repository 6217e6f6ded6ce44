"""Public lists served from the shared cache for a moment.

The match lists, the leaderboards, the ladders, the bots and the tournaments are the same
for everybody (the match and tournament lists for everybody not signed in), and are read
far more often than they change: each page is
kept in the cache (Redis in production) for AGON_LIST_CACHE_SECONDS, 2 s by default,
under its host, URL and `Accept` header (JSON and the browsable page apart), and sent with
`Cache-Control: max-age` so that a proxy in front may keep it as long. A finished match
then shows in the lists up to that long after it finished; single matches, replays,
timelines and errors are never kept here. 0 turns it off (the test settings do). The
match and tournament lists, and a tournament's detail and games, are kept only for
requests that cannot be signed in (no token, no session cookie): a signed-in user's also
hold the private matches and tournaments they may see, answered afresh and never kept;
an anonymous one is shown public tournaments only, the same for all. (A tournament's own
pages are also kept per state of the tournament, for everybody: `kept_json`,
agon.tournaments.kept.)

A page of 4 KB or more is kept gzipped, and sent gzipped (`Content-Encoding: gzip`,
`Vary: Accept-Encoding`) to a client that accepts it: compressed once for every reader.

A page is kept as its bytes and a few headers, one value under one key: Django's
`cache_page` keeps the pickled response and its header list under two keys, which cost
every page it did not find (a bot's matches, mostly) 1.7 ms more on the bench machine.

One request remakes a page when it goes stale, not every request that asks for it then
(a herd of them each counting a ladder's 25,000 matches): a page is kept STALE_GRACE
longer than it is fresh, and the first request to find it stale takes the page's refresh
lock (`cache.add`, one holder across processes) and makes it again while the others are
given the stale copy, at most AGON_LIST_CACHE_SECONDS plus one refresh old (bounded by
REFRESH_LOCK_SECONDS should its maker die). A page not kept at all is made by whoever asks.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import re
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import patch_cache_control, patch_vary_headers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

KEY_PREFIX = "agon:api:list:"
KEPT_HEADERS = ("Content-Type", "Vary", "Allow")
GZIP_MIN_BYTES = 4096
"""Pages at least this long are kept gzipped (a 256-bot tournament's detail: 84 KB, 14 KB
gzipped; a page of 50 matches 23 KB, 4 KB), and sent so to a client
that accepts it; others get them unpacked (0.02 ms for 26 KB). Level 1: 0.1 ms for 26 KB
where level 6 takes 0.2 ms for 12% less, paid by every page the cache misses."""
_GZIP = re.compile(r"\bgzip\b")
STALE_GRACE = 2.0
"""How many times AGON_LIST_CACHE_SECONDS a stale page is kept beyond its freshness, for
the requests that come while one of them makes it again (`_Kept`)."""
REFRESH_LOCK_SECONDS = 10
"""How long a page's refresh lock holds if its holder never lets it go (a killed worker)."""

REFRESH_SUFFIX = ":refresh"
"""The refresh lock's key is the page's with this after it."""

View = Callable[..., HttpResponseBase]
_Kept = tuple[bytes, dict[str, str], bool, float]
"""A kept page: its bytes, its headers, whether the bytes are gzipped, and the time
(`time.time()`, the same for every process) until which it is fresh."""


def cached_for_everyone(view: View) -> View:
    """`view` answered from the cache for AGON_LIST_CACHE_SECONDS (read at each request)."""
    return _cached(view, anonymous_only=False)


def cached_when_anonymous(view: View) -> View:
    """As `cached_for_everyone`, for requests that cannot be signed in only: `view`
    shows a signed-in user what is theirs alone too."""
    return _cached(view, anonymous_only=True)


def _cached(view: View, *, anonymous_only: bool) -> View:
    @functools.wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        seconds = settings.AGON_LIST_CACHE_SECONDS
        if (
            seconds <= 0
            or request.method not in ("GET", "HEAD")
            or (anonymous_only and _credentialed(request))
        ):
            return view(request, *args, **kwargs)
        key = page_key(request)
        kept, refreshing = _kept_page(key)
        plain: bytes | None = None
        if kept is None:
            try:
                made = _made_page(view, request, args, kwargs, key, seconds)
            finally:
                if refreshing:
                    cache.delete(key + REFRESH_SUFFIX)
            if isinstance(made, HttpResponseBase):
                return made
            kept, plain = made
        content, headers, gzipped, fresh_until = kept
        max_age = max(0, round(fresh_until - time.time()))
        sent_gzipped = gzipped and _accepts_gzip(request)
        if gzipped and not sent_gzipped:
            content = plain if plain is not None else gzip.decompress(content)
        shown = HttpResponse(content, headers=headers)
        if sent_gzipped:
            shown["Content-Encoding"] = "gzip"
        patch_vary_headers(shown, ("Accept-Encoding",))
        patch_cache_control(shown, max_age=max_age)
        return shown

    return answer


def page_key(request: HttpRequest) -> str:
    """The cache key of the page `request` asks for: its host too, as pages hold absolute
    links (`next`, a tournament's `games`), and its `Accept` (JSON or the browsable page)."""
    accept = request.headers.get("Accept", "")
    page = f"{request.get_host()}\n{request.get_full_path()}\n{accept}"
    return KEY_PREFIX + hashlib.sha256(page.encode()).hexdigest()


def _kept_page(key: str) -> tuple[_Kept | None, bool]:
    """The page kept under `key` to answer with (None: this request is to make it), and
    whether this request took the page's refresh lock (to let go once it is made): the
    page is stale and nobody else is making it. Stale while another request makes it:
    the stale copy."""
    kept = cache.get(key)
    if kept is None:
        return None, False
    if len(kept) < 4:  # kept before pages had a freshness: fresh while kept
        content, headers, *packed = kept
        return (content, headers, bool(packed and packed[0]), time.time()), False
    if kept[3] > time.time() or not cache.add(key + REFRESH_SUFFIX, 1, REFRESH_LOCK_SECONDS):
        return kept, False
    return None, True


def _made_page(
    view: View, request: HttpRequest, args: Any, kwargs: Any, key: str, seconds: int
) -> HttpResponseBase | tuple[_Kept, bytes]:
    """The view's answer, kept under `key` (fresh for `seconds`) if it is a page, as the
    kept page and its plain bytes; anything else (an error, a redirect) as it is."""
    response = view(request, *args, **kwargs)
    if response.status_code != 200 or not isinstance(response, HttpResponse):
        return response
    if callable(render := getattr(response, "render", None)):
        render()  # DRF's responses render late; the bytes are what is kept
    headers = {name: response[name] for name in KEPT_HEADERS if name in response}
    plain = content = response.content
    gzipped = len(plain) >= GZIP_MIN_BYTES
    if gzipped:
        content = gzip.compress(plain, compresslevel=1, mtime=0)
    kept = (content, headers, gzipped, time.time() + seconds)
    cache.set(key, kept, seconds * (1 + STALE_GRACE))
    return kept, plain


def _accepts_gzip(request: HttpRequest) -> bool:
    return bool(_GZIP.search(request.headers.get("Accept-Encoding", "")))


def _credentialed(request: HttpRequest) -> bool:
    """Whether the request may be signed in (a token or a session): what it is shown may
    hold private matches of its user's (agon.matches.visibility), which no other user
    may be given from the cache, nor a proxy keep."""
    return "Authorization" in request.headers or settings.SESSION_COOKIE_NAME in request.COOKIES


def kept_json(
    request: Request, kept: tuple[str, int] | None, make: Callable[[], Any]
) -> HttpResponseBase:
    """The JSON `make()` gives, as JSON bytes kept in the shared cache under `kept`'s key
    (which changes with what the data depend on) and the request's host, path, query and
    `Accept` (a page, a page size; absolute links), for `kept`'s seconds. Not kept without
    a key, nor when it is asked for as anything but JSON (the browsable page): a Response,
    rendered as always."""
    renderer = request.accepted_renderer
    if kept is None or not isinstance(renderer, JSONRenderer):
        return Response(make())
    key, seconds = kept
    asked = f"{request.get_host()}\n{request.get_full_path()}\n{request.headers.get('Accept', '')}"
    full_key = f"{key}:{hashlib.sha256(asked.encode()).hexdigest()}"
    content = cache.get(full_key)
    if not isinstance(content, bytes):
        content = renderer.render(make(), request.accepted_media_type, {"request": request})
        cache.set(full_key, content, seconds)
    return HttpResponse(content, content_type=renderer.media_type)
