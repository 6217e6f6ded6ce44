"""The events Agon counts, in the process where they happen: HTTP requests (web
processes) and finished, failed and taken-over matches with their durations and bots'
faults (worker processes), as prometheus_client counters and histograms.

A module of their own, below every app: the matches app counts here without knowing
who serves the values, and `agon.ops.metrics`, which serves them (with the state read at
scrape time), reads the matches app. What each metric means, and how the values of many
processes add up, is said there.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import wraps
from typing import ParamSpec

from prometheus_client import Counter, Histogram

log = logging.getLogger(__name__)

P = ParamSpec("P")

HTTP_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

REQUEST_SECONDS = Histogram(
    "agon_http_request_duration_seconds",
    "Time to answer an HTTP request (to the first byte of a streamed body), by URL "
    "pattern name, method and status.",
    ["route", "method", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
MATCHES_FINISHED = Counter(
    "agon_matches_finished", "Matches finished (a result stored).", ["game", "kind"]
)
MATCHES_FAILED = Counter(
    "agon_matches_failed",
    "Matches failed (no result: the sandbox or the worker failed).",
    ["game", "kind"],
)
MATCHES_TAKEN_OVER = Counter(
    "agon_matches_taken_over",
    "Matches whose run fell silent (its pool process or worker died), taken over by "
    "another task or queued again by the sweep.",
    ["game", "kind"],
)
MATCH_SECONDS = Histogram(
    "agon_match_duration_seconds",
    "Wall time of a finished match in the sandbox, boxes started to boxes gone.",
    ["game"],
    buckets=(0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0, 900.0),
)
BOT_FAULTS = Counter(
    "agon_bot_faults", "Faults recorded by the referee in finished matches.", ["game", "kind"]
)


def _never_raises(record: Callable[P, None]) -> Callable[P, None]:
    """Counting must never break what is counted (a request, a finished match)."""

    @wraps(record)
    def safe(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            record(*args, **kwargs)
        except Exception:
            log.exception("could not record the metric of %s", record.__name__)

    return safe


@_never_raises
def record_request(*, route: str, method: str, status: int, seconds: float) -> None:
    shown_method = method if method in HTTP_METHODS else "other"
    REQUEST_SECONDS.labels(route, shown_method, str(status)).observe(seconds)


@_never_raises
def record_match_finished(
    *, game: str, kind: str, match_seconds: float | None, fault_kinds: Sequence[str]
) -> None:
    MATCHES_FINISHED.labels(game, kind).inc()
    if match_seconds is not None:
        MATCH_SECONDS.labels(game).observe(match_seconds)
    for fault_kind in fault_kinds:
        BOT_FAULTS.labels(game, fault_kind).inc()


@_never_raises
def record_match_failed(*, game: str, kind: str) -> None:
    MATCHES_FAILED.labels(game, kind).inc()


@_never_raises
def record_match_taken_over(*, game: str, kind: str) -> None:
    MATCHES_TAKEN_OVER.labels(game, kind).inc()
