"""Prometheus metrics: what is measured where, and how it stays right across processes.

Agon runs as many processes: gunicorn's workers serve the web, Celery workers (each a
main process and its prefork pool, possibly on other hosts) play matches. Each metric is
measured where its truth is:

Events, counted in the process where they happen (prometheus_client metrics, defined
in `agon.counters`, where the apps count them):

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
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from prometheus_client import REGISTRY, CollectorRegistry, start_http_server
from prometheus_client.exposition import choose_encoder
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from agon.celery import app
from agon.matches.selectors import match_queue

log = logging.getLogger(__name__)

# --- state read at scrape time -------------------------------------------------------------


class MatchQueueCollector(Collector):
    """Queued and running matches, from the database (`match_queue`)."""

    def collect(self) -> Iterable[Metric]:
        help_up = "Whether this scrape could read the database."
        try:
            queue = match_queue()
        except Exception:
            log.exception("metrics: the database could not be read")
            yield GaugeMetricFamily("agon_database_up", help_up, value=0)
            return
        yield GaugeMetricFamily("agon_database_up", help_up, value=1)
        yield GaugeMetricFamily(
            "agon_matches_queued", "Matches waiting for a worker.", value=queue.queued
        )
        yield GaugeMetricFamily(
            "agon_matches_running", "Matches a worker is playing.", value=queue.running
        )
        yield GaugeMetricFamily(
            "agon_matches_silent",
            "Running matches whose run died (a stale heartbeat), waiting to be taken over.",
            value=queue.silent,
        )
        yield GaugeMetricFamily(
            "agon_oldest_queued_match_age_seconds",
            "Age of the oldest queued match, since it was created (0 when none is queued).",
            value=queue.oldest_queued_seconds,
        )


def broker_queues() -> list[str]:
    return list(settings.AGON_WORKER_QUEUES)


def redis_queue_lengths(queues: Sequence[str], *, timeout: float) -> tuple[dict[str, int], int]:
    """Messages waiting in each queue (all of its priority lists) and messages taken but
    not acknowledged, read from a Redis broker with kombu's own key names and prefix."""
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


def worker_metrics_at_start(**kwargs: Any) -> None:
    """Celery's worker_init (connected by the ops app): with AGON_WORKER_METRICS_PORT set,
    the worker's main process serves the metrics its pool processes count; a worker that
    cannot is stopped, not left running unmeasured."""
    port = settings.AGON_WORKER_METRICS_PORT
    if not port:
        return
    try:
        serve_worker_metrics(port)
    except Exception as error:
        raise SystemExit(f"cannot serve the worker's metrics on port {port}: {error}") from error
