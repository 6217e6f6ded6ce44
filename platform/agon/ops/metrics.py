"""Prometheus metrics: what is measured where, and how it stays right across processes.

Agon runs as many processes: gunicorn's workers serve the web, Celery workers (each a
main process and its prefork pool, possibly on other hosts) play matches. Each metric is
measured where its truth is:

Events, counted in the process where they happen (prometheus_client metrics):

    agon_http_request_duration_seconds{route,method,status}   histogram, web processes
        API and page latency by URL pattern name (`matches`, `web:match`; `static` for
        files WhiteNoise serves, `unmatched` for requests no pattern takes), never the raw
        path, so the series stay few.
    agon_matches_finished_total{game,kind}                     counter, worker processes
        `rate()` of it is matches per second (x60: per minute).
    agon_matches_failed_total{game,kind}                       counter, worker processes
    agon_matches_taken_over_total{game,kind}                   counter, worker processes
        Matches whose run fell silent (its pool process or worker died) and that another
        task took over or the sweep queued again: how often workers die mid-match.
    agon_match_duration_seconds{game}                          histogram, worker processes
        Wall time of a match in the sandbox, boxes started to boxes gone.
    agon_bot_faults_total{game,kind}                           counter, worker processes
        Faults the referee recorded (timeout, illegal_action, bad_output, output_limit,
        crash, memory): a handful of kinds, so few series.

  These are counted once the finishing transaction commits, so a rolled-back finish
  counts nothing. They are counted, not read from the database at scrape time, because
  totals over the matches table grow with it (200,000 rows and more) and faults and
  durations have no index to count by; a scrape must stay a few milliseconds.

  With several processes per host they need prometheus_client's multiprocess mode:
  set PROMETHEUS_MULTIPROC_DIR to an empty folder (a tmpfs) in the environment of
  every process of a host, before it starts; each process then writes
  its values to files there and a scrape adds them up, the values of processes that
  ended included (a counter keeps counting when gunicorn or Celery replaces a worker).
  No metric here is a per-process gauge, so no hook has to remove a dead process's files.
  The folder is per host and per PID namespace (the files are named by process id): two
  containers never share one. Without the variable (one process: tests, `runserver`)
  the values stay in the process.

  - The web app serves its processes' values at `GET /metrics`.
  - A Celery worker serves its pool's values on its own port when
    AGON_WORKER_METRICS_PORT is set (`http://HOST:PORT/`, any path), which needs
    PROMETHEUS_MULTIPROC_DIR: the main process serves, the pool processes count.
  - `agon up` gives its web server and worker one shared folder under var/, so on that
    single machine `/metrics` alone has everything.

  Prometheus adds the instances up: `sum(rate(agon_matches_finished_total[5m])) * 60`.

State, read at scrape time by `/metrics` (the same in every web process, so in every
web instance; take `max` across instances, never `sum`):

    agon_matches_queued, agon_matches_running                  gauges, from the database
    agon_matches_silent                                        gauge, from the database
        Running matches whose heartbeat is older than AGON_MATCH_STALE_SECONDS: their
        run died and they wait to be taken over (a task or the sweep, within seconds).
        One that stays up means nothing takes them over: no worker or no beat.
    agon_oldest_queued_match_age_seconds                       gauge, from the database
        Counted over the `status` index: cheap because queued and running matches are
        few whatever the size of the table (finished ones are never counted here).
    agon_broker_queue_messages{queue}                          gauge, Redis brokers only
    agon_broker_unacked_messages                               gauge, Redis brokers only
        Messages waiting in each Celery queue (`matches`, `default`), and messages taken
        by a worker and not yet acknowledged (running tasks: acks_late).
    agon_database_up, agon_broker_up                           gauges, 1 or 0
        Whether this scrape could read the database or the broker; a failure there still
        gives every other metric.

`/metrics` is protected by a bearer token when AGON_METRICS_TOKEN is set (see `views`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Sequence
from functools import wraps
from typing import Any, ParamSpec

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Count, Min
from django.utils import timezone
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, start_http_server
from prometheus_client.exposition import choose_encoder
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from agon.matches.models import Match
from agon.matches.selectors import silent_matches

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


# --- state read at scrape time -------------------------------------------------------------


class MatchQueueCollector(Collector):
    """Queued and running matches, from the database."""

    def collect(self) -> Iterable[Metric]:
        active = (Match.Status.QUEUED, Match.Status.RUNNING)
        try:
            counts = dict(
                Match.objects.filter(status__in=active)
                .order_by()
                .values_list("status")
                .annotate(n=Count("id"))
                .values_list("status", "n")
            )
            oldest = Match.objects.filter(status=Match.Status.QUEUED).aggregate(
                oldest=Min("created")
            )["oldest"]
            silent = silent_matches().count()
        except Exception:
            log.exception("metrics: the database could not be read")
            yield GaugeMetricFamily(
                "agon_database_up", "Whether this scrape could read the database.", value=0
            )
            return
        yield GaugeMetricFamily(
            "agon_database_up", "Whether this scrape could read the database.", value=1
        )
        yield GaugeMetricFamily(
            "agon_matches_queued",
            "Matches waiting for a worker.",
            value=counts.get(Match.Status.QUEUED, 0),
        )
        yield GaugeMetricFamily(
            "agon_matches_running",
            "Matches a worker is playing.",
            value=counts.get(Match.Status.RUNNING, 0),
        )
        yield GaugeMetricFamily(
            "agon_matches_silent",
            "Running matches whose run died (a stale heartbeat), waiting to be taken over.",
            value=silent,
        )
        age = (timezone.now() - oldest).total_seconds() if oldest is not None else 0.0
        yield GaugeMetricFamily(
            "agon_oldest_queued_match_age_seconds",
            "Age of the oldest queued match, since it was created (0 when none is queued).",
            value=max(age, 0.0),
        )


def broker_queues() -> list[str]:
    return list(settings.AGON_WORKER_QUEUES)


def redis_queue_lengths(queues: Sequence[str], *, timeout: float) -> tuple[dict[str, int], int]:
    """Messages waiting in each queue (all of its priority lists) and messages taken but
    not acknowledged, read from a Redis broker with kombu's own key names and prefix."""
    # Late: agon.celery imports this module for the worker's metrics (a cycle at the top).
    from agon.celery import app

    with app.connection_for_read(
        url=settings.CELERY_BROKER_URL,
        connect_timeout=timeout,
        transport_options={**settings.CELERY_BROKER_TRANSPORT_OPTIONS, "socket_timeout": timeout},
    ) as connection:
        channel: Any = connection.default_channel  # kombu's Redis channel
        client = channel.client
        lengths = {}
        for queue in queues:
            keys = [
                f"{queue}{channel.sep}{step}" if step else queue for step in channel.priority_steps
            ]
            lengths[queue] = sum(int(client.llen(key)) for key in keys)
        return lengths, int(client.hlen(channel.unacked_key))


class BrokerQueueCollector(Collector):
    """The Celery queues' lengths, when the broker is Redis."""

    def collect(self) -> Iterable[Metric]:
        if not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
            return
        help_up = "Whether this scrape could read the broker's queues."
        try:
            lengths, unacked = redis_queue_lengths(
                broker_queues(), timeout=settings.AGON_HEALTH_TIMEOUT_SECONDS
            )
        except Exception as error:
            log.warning("metrics: the broker could not be read: %s", error)
            yield GaugeMetricFamily("agon_broker_up", help_up, value=0)
            return
        yield GaugeMetricFamily("agon_broker_up", help_up, value=1)
        waiting = GaugeMetricFamily(
            "agon_broker_queue_messages", "Messages waiting in a Celery queue.", labels=["queue"]
        )
        for queue, length in lengths.items():
            waiting.add_metric([queue], length)
        yield waiting
        yield GaugeMetricFamily(
            "agon_broker_unacked_messages",
            "Messages a worker has taken and not yet acknowledged (tasks running).",
            value=unacked,
        )


# --- exposition ----------------------------------------------------------------------------


def multiprocess_dir() -> str | None:
    """The folder of multiprocess mode, or None when values stay in each process."""
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def process_metrics_collector(registry: CollectorRegistry) -> None:
    """Add this host's counted metrics to `registry`: every process's (multiprocess
    mode) or this process's own."""
    if multiprocess_dir():
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry.register(REGISTRY)


def render_metrics(accept: str | None) -> tuple[bytes, str]:
    """The text exposition for a scrape of the web app (counted and state metrics), in
    the format the `Accept` header asks for; the body and its content type."""
    registry = CollectorRegistry()
    process_metrics_collector(registry)
    registry.register(MatchQueueCollector())
    registry.register(BrokerQueueCollector())
    encode, content_type = choose_encoder(accept or "")
    return encode(registry), content_type


def serve_worker_metrics(port: int, address: str = "0.0.0.0") -> None:  # noqa: S104
    """Serve the pool's counted metrics on `port` from this (a Celery worker's main)
    process, in a thread. Each pool process counts in its own files, so this needs
    multiprocess mode."""
    if not multiprocess_dir():
        raise ImproperlyConfigured(
            "AGON_WORKER_METRICS_PORT needs PROMETHEUS_MULTIPROC_DIR (an empty folder): "
            "the matches are counted in the worker's pool processes, not in the one "
            "that serves the metrics"
        )
    registry = CollectorRegistry()
    process_metrics_collector(registry)
    start_http_server(port, addr=address, registry=registry)
    log.info("worker metrics on port %s", port)
