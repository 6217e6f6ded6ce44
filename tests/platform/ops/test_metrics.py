"""GET /metrics: counted events (finished and failed matches, their duration, faults by
kind, request latency by route) and state read at scrape time (queued and running
matches, the broker's queues), in Prometheus' text format."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pytest_django import Settings

from agon import counters
from agon.bots.services import bot_submit
from agon.ladders.models import Ladder
from agon.matches.models import Match
from agon.matches.services import match_claim, match_create, match_execute, match_fail
from agon.matches.tasks import execute_queued_match
from tests.platform.conftest import MakeBot
from tests.platform.ops.support import closed_port, has_metric, metric
from tests.platform.pipeline.support import purge_broker
from tests.platform.support import finish_match, latest_version, py_upload, validation_match

pytestmark = pytest.mark.django_db

CRASHING_BOT = b"""\
import sys

sys.exit("this bot gives up at once")
"""


def scrape(client: Client) -> str:
    response = client.get("/metrics")
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"].startswith("text/plain")
    return response.content.decode()


@pytest.fixture
def on_commit(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> Callable[[], Any]:
    """Run what is deferred to the commit (the tests' transaction never commits)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def media(settings: Settings, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.AGON_WORK_DIR = tmp_path / "work"
    settings.AGON_SANDBOX = "bwrap"


@pytest.mark.usefixtures("media")
def test_a_real_match_finishing_counts_once_with_its_duration(
    client: Client, alice: User, ladders: list[Ladder], on_commit: Callable[[], Any]
) -> None:
    bot = bot_submit(owner=alice, name="plain", game="akropolis", upload=py_upload())
    match = validation_match(latest_version(bot))
    labels = {"game": "akropolis", "kind": "validation"}
    before = scrape(client)
    assert metric(before, "agon_matches_queued") == 1
    with on_commit():
        assert match_execute(match_id=match.id)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.faults == []
    after = scrape(client)
    finished = metric(after, "agon_matches_finished_total", **labels)
    assert finished == metric(before, "agon_matches_finished_total", **labels) + 1
    count = metric(after, "agon_match_duration_seconds_count", game="akropolis")
    assert count == metric(before, "agon_match_duration_seconds_count", game="akropolis") + 1
    total = metric(after, "agon_match_duration_seconds_sum", game="akropolis")
    previous_total = metric(before, "agon_match_duration_seconds_sum", game="akropolis")
    assert total - previous_total == pytest.approx(match.match_seconds)
    assert metric(after, "agon_matches_queued") == 0


@pytest.mark.usefixtures("media")
def test_a_crashing_bot_is_counted_as_a_crash_fault(
    client: Client, alice: User, ladders: list[Ladder], on_commit: Callable[[], Any]
) -> None:
    bot = bot_submit(
        owner=alice, name="quitter", game="akropolis", upload=py_upload(data=CRASHING_BOT)
    )
    match = validation_match(latest_version(bot))
    before = scrape(client)
    with on_commit():
        assert match_execute(match_id=match.id)
    match.refresh_from_db()
    assert [fault["kind"] for fault in match.faults] == ["crash"]
    after = scrape(client)
    crash = {"game": "akropolis", "kind": "crash"}
    assert metric(after, "agon_bot_faults_total", **crash) == (
        metric(before, "agon_bot_faults_total", **crash) + 1
    )
    timeouts = {"game": "akropolis", "kind": "timeout"}
    assert metric(after, "agon_bot_faults_total", **timeouts) == metric(
        before, "agon_bot_faults_total", **timeouts
    )


def test_faults_are_counted_by_kind(
    client: Client,
    alice: User,
    make_bot: MakeBot,
    ladder_2p: Ladder,
    on_commit: Callable[[], Any],
) -> None:
    bots = [make_bot(alice, "one"), make_bot(alice, "two")]
    before = scrape(client)
    for faults in ({0: "timeout"}, {0: "timeout", 1: "illegal_action"}):
        match = match_create(
            kind=Match.Kind.CHALLENGE,
            ladder=ladder_2p,
            game="akropolis",
            players=2,
            options={},
            seats=[latest_version(bot) for bot in bots],
        )
        with on_commit():
            finish_match(match, scores=[1, 2], faults=faults)
    after = scrape(client)

    def added(kind: str) -> float:
        return metric(after, "agon_bot_faults_total", game="akropolis", kind=kind) - metric(
            before, "agon_bot_faults_total", game="akropolis", kind=kind
        )

    assert (added("timeout"), added("illegal_action"), added("crash")) == (2, 1, 0)
    challenges = {"game": "akropolis", "kind": "challenge"}
    assert metric(after, "agon_matches_finished_total", **challenges) == (
        metric(before, "agon_matches_finished_total", **challenges) + 2
    )


def test_a_failed_match_is_counted_as_failed_not_finished(
    client: Client, on_commit: Callable[[], Any]
) -> None:
    match = match_create(
        kind=Match.Kind.CHALLENGE,
        game="architekton",
        players=2,
        options={},
        seats=["random", "greedy"],
    )
    token = match_claim(match_id=match.id)
    assert token is not None
    labels = {"game": "architekton", "kind": "challenge"}
    before = scrape(client)
    assert metric(before, "agon_matches_running") == 1
    with on_commit():
        assert match_fail(match_id=match.id, token=token, error="the sandbox failed")
    after = scrape(client)
    assert metric(after, "agon_matches_failed_total", **labels) == (
        metric(before, "agon_matches_failed_total", **labels) + 1
    )
    assert metric(after, "agon_matches_finished_total", **labels) == metric(
        before, "agon_matches_finished_total", **labels
    )
    assert metric(after, "agon_matches_running") == 0


def test_a_finish_rolled_back_counts_nothing(
    client: Client, make_bot: MakeBot, alice: User
) -> None:
    """Without a commit (the test's transaction never commits), nothing is counted."""
    bot = make_bot(alice, "uncommitted", active=False)
    labels = {"game": "akropolis", "kind": "validation"}
    before = scrape(client)
    finish_match(validation_match(latest_version(bot)), scores=[3, 1])
    after = scrape(client)
    assert metric(after, "agon_matches_finished_total", **labels) == metric(
        before, "agon_matches_finished_total", **labels
    )


def test_queued_and_running_matches_and_the_oldest_wait_are_read_at_scrape_time(
    client: Client,
) -> None:
    matches = [
        match_create(
            kind=Match.Kind.CHALLENGE,
            game="architekton",
            players=2,
            options={},
            seats=["random", "random"],
        )
        for _ in range(3)
    ]
    assert match_claim(match_id=matches[0].id) is not None
    text = scrape(client)
    assert metric(text, "agon_matches_queued") == 2
    assert metric(text, "agon_matches_running") == 1
    assert metric(text, "agon_oldest_queued_match_age_seconds") >= 0
    assert metric(text, "agon_database_up") == 1


def test_a_match_whose_run_fell_silent_is_read_at_scrape_time_and_counted_when_taken_over(
    client: Client, settings: Settings, on_commit: Callable[[], Any]
) -> None:
    settings.AGON_MATCH_STALE_SECONDS = 10
    match = match_create(
        kind=Match.Kind.CHALLENGE, game="architekton", players=2, options={}, seats=["random"] * 2
    )
    assert match_claim(match_id=match.id, now=timezone.now() - timedelta(seconds=11))
    labels = {"game": "architekton", "kind": "challenge"}
    before = scrape(client)
    assert metric(before, "agon_matches_silent") == 1
    assert metric(before, "agon_matches_running") == 1
    with on_commit():
        assert match_claim(match_id=match.id) is not None
    after = scrape(client)
    assert metric(after, "agon_matches_silent") == 0
    assert metric(after, "agon_matches_taken_over_total", **labels) == (
        metric(before, "agon_matches_taken_over_total", **labels) + 1
    )


def test_the_state_is_read_with_three_indexed_queries(
    client: Client, make_bot: MakeBot, alice: User
) -> None:
    """However many finished matches there are, the scrape reads an index by status for
    the few queued and running ones (plans priced as in tests/platform/api/test_query_plans)."""
    make_bot(alice, "busy")
    with CaptureQueriesContext(connection) as queries:
        scrape(client)
    statements = [query["sql"] for query in queries.captured_queries]
    assert len(statements) == 3
    with connection.cursor() as cursor:
        for setting in ("enable_seqscan", "enable_bitmapscan"):
            cursor.execute(f"SET LOCAL {setting} = off")
        for sql in statements:
            cursor.execute(f"EXPLAIN {sql}")
            plan = "\n".join(row[0] for row in cursor.fetchall())
            # Either index that starts with the status will do.
            assert re.search(r"Index (Only )?Scan using match_status_", plan), plan
            assert "Seq Scan" not in plan, plan


def test_api_latency_is_recorded_by_route_name_not_by_path(client: Client) -> None:
    before = scrape(client)
    for match_id in (123456, 654321):
        assert client.get(f"/api/matches/{match_id}/").status_code == 404
    assert client.get("/api/games/").status_code == 200
    assert client.get("/no/such/page/").status_code == 404
    after = scrape(client)

    def added(**labels: str) -> float:
        name = "agon_http_request_duration_seconds_count"
        return metric(after, name, **labels) - metric(before, name, **labels)

    assert added(route="match", method="GET", status="404") == 2
    assert added(route="games", method="GET", status="200") == 1
    assert added(route="unmatched", method="GET", status="404") == 1
    assert "123456" not in after
    assert "/api/" not in after


def test_the_broker_queue_lengths_are_read_from_redis(client: Client) -> None:
    purge_broker()
    try:
        execute_queued_match.delay(0)  # never consumed: no worker runs here
        execute_queued_match.delay(0)
        text = scrape(client)
    finally:
        purge_broker()
    assert metric(text, "agon_broker_up") == 1
    assert metric(text, "agon_broker_queue_messages", queue="matches") == 2
    assert metric(text, "agon_broker_queue_messages", queue="default") == 0
    assert has_metric(text, "agon_broker_unacked_messages")


def test_an_unreachable_broker_leaves_the_other_metrics(client: Client, settings: Settings) -> None:
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{closed_port()}/0"
    text = scrape(client)
    assert metric(text, "agon_broker_up") == 0
    assert not has_metric(text, "agon_broker_queue_messages")
    assert has_metric(text, "agon_matches_queued")


def test_a_token_protects_the_metrics_when_one_is_set(client: Client, settings: Settings) -> None:
    settings.AGON_METRICS_TOKEN = "s3cret-scraper"  # noqa: S105 - a test value
    assert client.get("/metrics").status_code == 401
    wrong = client.get("/metrics", HTTP_AUTHORIZATION="Bearer guess")
    assert wrong.status_code == 401
    assert wrong["WWW-Authenticate"].startswith("Bearer")
    right = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-scraper")
    assert right.status_code == 200
    assert has_metric(right.content.decode(), "agon_matches_queued")


def test_prometheus_may_scrape_an_instance_by_its_address(
    client: Client, settings: Settings
) -> None:
    settings.ALLOWED_HOSTS = ["agon.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    response = client.get("/metrics", HTTP_HOST="10.0.3.17:8000")
    assert response.status_code == 200


def test_openmetrics_is_served_to_a_scraper_that_asks_for_it(client: Client) -> None:
    response = client.get("/metrics", HTTP_ACCEPT="application/openmetrics-text; version=1.0.0")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/openmetrics-text")
    assert response.content.rstrip().endswith(b"# EOF")


def test_a_metric_that_cannot_be_recorded_never_breaks_the_finish(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """E.g. a multiprocess folder that went away: the match is finished all the same."""

    def broken(*labels: str) -> Any:
        raise FileNotFoundError("the multiprocess folder is gone")

    monkeypatch.setattr(counters.MATCHES_FINISHED, "labels", broken)
    counters.record_match_finished(
        game="akropolis", kind="ranked", match_seconds=1.0, fault_kinds=[]
    )
    assert "could not record the metric of record_match_finished" in caplog.text
    assert "the multiprocess folder is gone" in caplog.text
