"""A stale list page is made again by one request, not by every request that finds it
stale: the others are given the stale copy meanwhile (agon.api.caching)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.test import RequestFactory
from pytest_django import Settings

from agon.api.caching import REFRESH_SUFFIX, cached_for_everyone, page_key

URL = "/api/matches/?ladder=1"


class CountingView:
    """A list view whose pages say how many times it was asked, and which can be held in
    the middle of making a page (`hold`) until `release`."""

    def __init__(self) -> None:
        self.calls = 0
        self.holding = threading.Event()
        self.released = threading.Event()
        self.released.set()

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        self.calls += 1
        made = self.calls
        self.holding.set()
        assert self.released.wait(10), "the held request was never released"
        if request.GET.get("fail"):
            raise RuntimeError("the view failed")
        return HttpResponse(f"page {made}".encode(), content_type="application/json")

    def hold(self) -> None:
        self.holding.clear()
        self.released.clear()

    def release(self) -> None:
        self.released.set()


@pytest.fixture(autouse=True)
def lists_cached(settings: Settings) -> Iterator[None]:
    settings.AGON_LIST_CACHE_SECONDS = 2
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def view() -> CountingView:
    return CountingView()


@pytest.fixture
def ask(view: CountingView) -> Callable[..., HttpResponseBase]:
    answer = cached_for_everyone(view)

    def asked(url: str = URL) -> HttpResponseBase:
        return answer(RequestFactory().get(url))

    return asked


def make_stale(url: str = URL) -> None:
    """The kept page as it is once AGON_LIST_CACHE_SECONDS have passed (still kept, for
    the grace after its freshness)."""
    key = page_key(RequestFactory().get(url))
    content, headers, gzipped, _fresh_until = cache.get(key)
    cache.set(key, (content, headers, gzipped, 0.0), 60)


def body(response: HttpResponseBase) -> bytes:
    assert isinstance(response, HttpResponse)
    return response.content


def test_a_fresh_page_is_answered_from_the_cache(
    view: CountingView, ask: Callable[..., HttpResponseBase]
) -> None:
    first, second = ask(), ask()

    assert body(first) == body(second) == b"page 1"
    assert view.calls == 1
    assert "max-age=2" in second["Cache-Control"]


def test_a_stale_page_is_made_again_by_the_first_request_that_finds_it(
    view: CountingView, ask: Callable[..., HttpResponseBase]
) -> None:
    ask()
    make_stale()

    remade = ask()

    assert body(remade) == b"page 2"
    assert "max-age=2" in remade["Cache-Control"]
    assert body(ask()) == b"page 2"
    assert view.calls == 2


def test_while_one_request_makes_a_stale_page_the_others_get_the_stale_copy_at_once(
    view: CountingView, ask: Callable[..., HttpResponseBase]
) -> None:
    ask()
    make_stale()
    view.hold()
    answers: list[HttpResponseBase] = []
    maker = threading.Thread(target=lambda: answers.append(ask()))
    maker.start()
    try:
        assert view.holding.wait(10)
        meanwhile = [ask() for _ in range(5)]
    finally:
        view.release()
        maker.join(10)

    assert [body(answer) for answer in meanwhile] == [b"page 1"] * 5
    assert all("max-age=0" in answer["Cache-Control"] for answer in meanwhile)
    assert [body(answer) for answer in answers] == [b"page 2"]
    assert view.calls == 2  # the herd made it once
    assert body(ask()) == b"page 2"
    assert cache.get(page_key(RequestFactory().get(URL)) + REFRESH_SUFFIX) is None


def test_a_refresh_that_fails_lets_the_next_request_try_again(
    view: CountingView, ask: Callable[..., HttpResponseBase]
) -> None:
    failing = f"{URL}&fail=1"
    view.released.set()
    cache.set(
        page_key(RequestFactory().get(failing)),
        (b"page 0", {"Content-Type": "application/json"}, False, 0.0),
        60,
    )

    with pytest.raises(RuntimeError):
        ask(failing)
    with pytest.raises(RuntimeError):  # not the stale copy: the lock was let go
        ask(failing)

    assert view.calls == 2


def test_a_page_nobody_keeps_is_made_by_each_request_that_asks(
    view: CountingView, ask: Callable[..., HttpResponseBase]
) -> None:
    ask()
    cache.clear()
    ask()

    assert view.calls == 2


def test_a_lock_left_by_a_dead_maker_holds_the_page_stale_only_until_it_expires(
    view: CountingView, ask: Callable[..., HttpResponseBase]
) -> None:
    ask()
    make_stale()
    lock = page_key(RequestFactory().get(URL)) + REFRESH_SUFFIX
    cache.set(lock, 1, 60)  # a maker killed in the middle

    assert body(ask()) == b"page 1"
    cache.delete(lock)  # as REFRESH_LOCK_SECONDS after it was taken
    assert body(ask()) == b"page 2"
