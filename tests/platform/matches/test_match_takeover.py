"""Claiming a match when a run may already hold it: a run that keeps its heartbeat fresh
keeps its match; one that fell silent (its pool process or worker was killed) loses it
to the next task, with a new claim token, so its late result is dropped; attempts bound
how often that happens. The clock is the `now` each claim is given."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from celery.app.task import Context
from django.contrib.auth.models import User
from django.db import DatabaseError, connections, transaction
from django.utils import timezone
from pytest_django import Settings

from agon.ladders.models import Ladder, RatingChange
from agon.matches import heartbeat, services, tasks
from agon.matches.heartbeat import Heartbeat, match_heartbeat
from agon.matches.models import Match
from agon.matches.services import (
    MatchHeld,
    match_claim,
    match_finish,
    requeue_stuck_matches,
)
from sandbox.backends import SandboxError
from tests.platform.conftest import MakeBot
from tests.platform.pipeline.support import wait_for
from tests.platform.support import latest_version, made_up_record, ranked_match

pytestmark = pytest.mark.django_db

CaptureOnCommit = Callable[..., Any]

STALE = 10.0
"""AGON_MATCH_STALE_SECONDS in these tests."""


@pytest.fixture(autouse=True)
def stale_after(settings: Settings) -> None:
    settings.AGON_MATCH_STALE_SECONDS = STALE
    settings.AGON_MATCH_MAX_ATTEMPTS = 3


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The match tasks sent (none reaches a worker here)."""
    messages: list[int] = []
    monkeypatch.setattr("agon.matches.services._enqueue", messages.append)
    return messages


@pytest.fixture
def match(make_bot: MakeBot, alice: User, ladder_2p: Ladder) -> Match:
    bots = [make_bot(alice, "one"), make_bot(alice, "two")]
    return ranked_match(ladder_2p, [latest_version(bot) for bot in bots])


def claimed_at(match: Match, when: datetime) -> str:
    token = match_claim(match_id=match.id, now=when)
    assert token is not None
    return token


def test_it_claims_a_queued_match_with_a_fresh_heartbeat(match: Match) -> None:
    t0 = timezone.now()
    token = claimed_at(match, t0)
    match.refresh_from_db()
    assert (match.status, match.claimed_by, match.attempts) == (Match.Status.RUNNING, token, 1)
    assert match.started == match.heartbeat == t0


def test_it_holds_off_another_run_while_the_heartbeat_is_fresh(match: Match) -> None:
    t0 = timezone.now()
    token = claimed_at(match, t0)
    with pytest.raises(MatchHeld) as held:
        match_claim(match_id=match.id, now=t0 + timedelta(seconds=4))
    # Told to look again just after the heartbeat would be stale.
    assert held.value.retry_in == pytest.approx(STALE - 4 + 1)
    with pytest.raises(MatchHeld):
        match_claim(match_id=match.id, now=t0 + timedelta(seconds=STALE))
    match.refresh_from_db()
    assert (match.claimed_by, match.attempts) == (token, 1)


def test_a_run_that_keeps_beating_keeps_its_match(match: Match) -> None:
    t0 = timezone.now()
    token = claimed_at(match, t0)
    assert match_heartbeat(match_id=match.id, token=token) is True
    match.refresh_from_db()
    beat = match.heartbeat
    assert beat is not None and beat > t0
    # Long after the claim, but not after the last beat: still held.
    with pytest.raises(MatchHeld):
        match_claim(match_id=match.id, now=beat + timedelta(seconds=STALE - 1))


def test_it_takes_over_a_match_whose_heartbeat_went_stale(match: Match) -> None:
    t0 = timezone.now()
    first = claimed_at(match, t0)
    later = t0 + timedelta(seconds=STALE + 0.5)
    second = claimed_at(match, later)
    assert second != first
    match.refresh_from_db()
    assert (match.status, match.claimed_by, match.attempts) == (Match.Status.RUNNING, second, 2)
    assert match.started == match.heartbeat == later
    # The silent run, should it wake up, learns that the match is no longer its own.
    assert match_heartbeat(match_id=match.id, token=first) is False
    assert match_heartbeat(match_id=match.id, token=second) is True


def test_a_heartbeat_after_the_run_finished_its_match_changes_nothing(match: Match) -> None:
    token = claimed_at(match, timezone.now())
    Match.objects.filter(id=match.id).update(status=Match.Status.FINISHED)
    assert match_heartbeat(match_id=match.id, token=token) is None


def test_a_late_result_of_the_run_taken_over_is_dropped(match: Match) -> None:
    t0 = timezone.now()
    first = claimed_at(match, t0)
    second = claimed_at(match, t0 + timedelta(seconds=STALE + 1))
    with transaction.atomic():
        assert not match_finish(
            match_id=match.id,
            token=first,
            record=made_up_record(match, scores=[40, 10]),
            started=time.monotonic(),
        )
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING and RatingChange.objects.count() == 0
    with transaction.atomic():
        assert match_finish(
            match_id=match.id,
            token=second,
            record=made_up_record(match, scores=[10, 40]),
            started=time.monotonic(),
        )
    match.refresh_from_db()
    assert (match.status, match.scores) == (Match.Status.FINISHED, [10, 40])
    assert RatingChange.objects.filter(match=match).count() == 2


def test_a_match_that_loses_its_run_on_every_attempt_ends_failed_with_the_reason(
    match: Match,
) -> None:
    when = timezone.now()
    for _ in range(3):
        claimed_at(match, when)
        when += timedelta(seconds=STALE + 1)
    assert match_claim(match_id=match.id, now=when) is None
    match.refresh_from_db()
    assert (match.status, match.attempts, match.claimed_by) == (Match.Status.FAILED, 3, "")
    assert match.error == "lost its worker 3 times"


def test_a_finished_or_failed_match_is_never_claimed_again(match: Match) -> None:
    Match.objects.filter(id=match.id).update(status=Match.Status.FINISHED)
    assert match_claim(match_id=match.id) is None
    Match.objects.filter(id=match.id).update(status=Match.Status.FAILED)
    assert match_claim(match_id=match.id) is None
    assert match_claim(match_id=0) is None


def test_a_match_claimed_before_heartbeats_existed_is_judged_by_its_start(match: Match) -> None:
    t0 = timezone.now()
    claimed_at(match, t0)
    Match.objects.filter(id=match.id).update(heartbeat=None)
    with pytest.raises(MatchHeld):
        match_claim(match_id=match.id, now=t0 + timedelta(seconds=STALE - 1))
    assert match_claim(match_id=match.id, now=t0 + timedelta(seconds=STALE + 1)) is not None


@pytest.mark.django_db(transaction=True)  # the thread reads with its own connection
def test_the_heartbeat_thread_keeps_the_heartbeat_fresh_until_the_match_is_taken(
    match: Match, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    settings.AGON_MATCH_HEARTBEAT_SECONDS = 0.05
    t0 = timezone.now()
    token = claimed_at(match, t0)
    beating = Heartbeat(match_id=match.id, token=token).start()
    try:

        def beaten_after(moment: datetime) -> bool:
            match.refresh_from_db()
            return match.heartbeat is not None and match.heartbeat > moment

        wait_for(lambda: beaten_after(t0), timeout=10, what="a first heartbeat")
        first_beat = match.heartbeat
        assert first_beat is not None
        wait_for(lambda: beaten_after(first_beat), timeout=10, what="a second heartbeat")
        Match.objects.filter(id=match.id).update(claimed_by="another run")
        wait_for(
            lambda: "was taken from this run" in caplog.text,
            timeout=10,
            what="the thread to see the match taken",
        )
    finally:
        beating.stop()


# --- a match played again is dealt afresh ---------------------------------------------------


def test_a_match_taken_over_is_dealt_afresh(match: Match) -> None:
    """Its first run's bots may have seen part of the deal and kept it (docs/threat-model.md)."""
    t0 = timezone.now()
    claimed_at(match, t0)
    match.refresh_from_db()
    first_deal = match.seed
    claimed_at(match, t0 + timedelta(seconds=STALE + 0.5))
    match.refresh_from_db()
    assert match.attempts == 2 and match.seed != first_deal


def test_a_match_given_back_after_a_sandbox_error_is_dealt_afresh(match: Match) -> None:
    token = claimed_at(match, timezone.now())
    match.refresh_from_db()
    first_deal = match.seed
    assert services.match_release(match_id=match.id, token=token)
    claimed_at(match, timezone.now())
    match.refresh_from_db()
    assert match.attempts == 2 and match.seed != first_deal


def test_a_match_claimed_the_first_time_keeps_the_seed_it_was_made_with(match: Match) -> None:
    made_with = match.seed
    claimed_at(match, timezone.now())
    match.refresh_from_db()
    assert match.seed == made_with


# --- the sweep ------------------------------------------------------------------------------


def test_the_sweep_queues_again_a_match_whose_heartbeat_is_stale(
    match: Match, sent: list[int], django_capture_on_commit_callbacks: CaptureOnCommit
) -> None:
    claimed_at(match, timezone.now() - timedelta(seconds=STALE + 1))
    with django_capture_on_commit_callbacks(execute=True):  # the task is sent on commit
        assert requeue_stuck_matches() == [match.id]
    assert sent == [match.id]
    match.refresh_from_db()
    assert (match.status, match.claimed_by, match.attempts) == (Match.Status.QUEUED, "", 1)


def test_the_sweep_leaves_a_long_match_alone_while_its_heartbeat_is_fresh(
    match: Match, sent: list[int]
) -> None:
    token = claimed_at(match, timezone.now() - timedelta(hours=1))
    assert match_heartbeat(match_id=match.id, token=token)
    assert requeue_stuck_matches() == []
    assert sent == []
    match.refresh_from_db()
    assert (match.status, match.claimed_by) == (Match.Status.RUNNING, token)


def test_the_sweep_fails_a_silent_match_after_its_last_attempt(
    match: Match, sent: list[int]
) -> None:
    claimed_at(match, timezone.now() - timedelta(seconds=STALE + 1))
    Match.objects.filter(id=match.id).update(attempts=3)
    assert requeue_stuck_matches() == []
    match.refresh_from_db()
    assert (match.status, match.error) == (Match.Status.FAILED, "lost its worker 3 times")
    assert sent == []


# --- the task -------------------------------------------------------------------------------


@pytest.fixture
def retries(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """The task's retries, as the keyword arguments it asked for (nothing is sent)."""
    asked: list[dict[str, object]] = []

    class Retried(Exception):
        pass

    def retry(**kwargs: object) -> Exception:
        asked.append(kwargs)
        return Retried()

    monkeypatch.setattr(tasks.execute_queued_match, "retry", retry)
    return asked


def run_task(match_id: int, *, retries: int = 0) -> object:
    """The task's body as a worker runs it, on its `retries`-th retry."""
    tasks.execute_queued_match.request_stack.push(Context(retries=retries))
    try:
        return tasks.execute_queued_match.run(match_id)
    except Exception as error:
        return error
    finally:
        tasks.execute_queued_match.request_stack.pop()


def test_the_task_retries_itself_for_when_a_silent_run_would_be_stale(
    match: Match, retries: list[dict[str, object]]
) -> None:
    claimed_at(match, timezone.now())
    assert type(run_task(match.id)).__name__ == "Retried"
    (asked,) = retries
    countdown = asked["countdown"]
    assert isinstance(countdown, float) and STALE - 1 < countdown <= STALE + 1


def test_the_task_gives_up_waiting_after_its_last_retry(
    match: Match, retries: list[dict[str, object]]
) -> None:
    claimed_at(match, timezone.now())
    assert tasks.execute_queued_match.max_retries == 3
    assert run_task(match.id, retries=3) is False
    assert retries == []
    match.refresh_from_db()
    assert (match.status, match.attempts) == (Match.Status.RUNNING, 1)


def test_the_task_retries_after_a_sandbox_error(
    match: Match, retries: list[dict[str, object]], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*, match_id: int, human: bool = False) -> bool:
        raise SandboxError("no box today")

    monkeypatch.setattr(services, "match_execute", broken)
    assert type(run_task(match.id)).__name__ == "Retried"
    (asked,) = retries
    assert isinstance(asked["exc"], SandboxError)


@pytest.mark.django_db(transaction=True)
def test_a_run_frozen_in_the_middle_of_its_heartbeat_never_holds_its_match_for_long(
    match: Match,
) -> None:
    """A run stopped (SIGSTOP) in the middle of its heartbeat's transaction keeps the
    match's row locked: the database ends that session, so the next claim takes the
    silent match over within half the stale limit, not as long as the run stays frozen,
    and the sweep passes the locked row by meanwhile."""
    t0 = timezone.now()
    claimed_at(match, t0)
    Match.objects.filter(id=match.id).update(heartbeat=t0 - timedelta(seconds=5 * STALE))
    locked, release = threading.Event(), threading.Event()

    def frozen_mid_heartbeat() -> None:
        try:
            with transaction.atomic():
                heartbeat.transaction_bounded()
                Match.objects.select_for_update().get(id=match.id)
                locked.set()
                release.wait(30)
        except DatabaseError:
            pass  # the database ended this session, as it should
        finally:
            connections.close_all()

    holder = threading.Thread(target=frozen_mid_heartbeat)
    holder.start()
    try:
        assert locked.wait(10)
        started = time.monotonic()
        assert requeue_stuck_matches() == []
        assert match_claim(match_id=match.id) is not None
        assert time.monotonic() - started < STALE
    finally:
        release.set()
        holder.join()
