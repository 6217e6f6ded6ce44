"""A match is finished exactly once: when its worker is killed in the middle, and when its
task is delivered twice."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from pytest_django import Settings

from agon.bots.models import BotVersion
from agon.bots.services import bot_submit
from agon.ladders.models import Ladder
from agon.matches import tasks
from agon.matches.models import Match
from agon.matches.services import requeue_stuck_matches
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import (
    EXAMPLE_BOTS,
    SLEEPY_BOT,
    assert_finished_exactly_once,
    assert_processes_gone,
    only_ladder,
    py_upload,
    ranked_match,
    wait_active,
    wait_finished,
    wait_for,
)

pytestmark = pytest.mark.django_db(transaction=True)

STUCK_SECONDS = 3
"""AGON_MATCH_STUCK_SECONDS here: a match running longer has lost its worker."""


def active_bots(pipeline: Pipeline, source: bytes, names: list[str]) -> list[BotVersion]:
    """Bots uploaded and validated through the real pipeline (a worker must run)."""
    owner = User.objects.create_user("pipeline-owner")
    bots = [
        bot_submit(owner=owner, name=name, game="akropolis", upload=py_upload("main.py", source))
        for name in names
    ]
    return [wait_active(bot.versions.get(), pipeline.explain()) for bot in bots]


def wait_running(match: Match, pipeline: Pipeline, *, for_seconds: float) -> None:
    """Until the match has been running for a while: its boxes started, turns played."""

    def running_long_enough() -> bool:
        match.refresh_from_db()
        assert match.status in (Match.Status.QUEUED, Match.Status.RUNNING), match.status
        return (
            match.status == Match.Status.RUNNING
            and match.started is not None
            and (timezone.now() - match.started).total_seconds() >= for_seconds
        )

    wait_for(
        running_long_enough,
        timeout=60,
        what=f"match {match.id} to be running for {for_seconds:g} s",
        explain=pipeline.explain(),
    )


@pytest.mark.parametrize("killed", ["the pool process", "the whole worker"])
def test_a_match_whose_worker_is_killed_is_played_again_and_finished_exactly_once(
    pipeline: Pipeline, settings: Settings, killed: str
) -> None:
    settings.AGON_MATCH_STUCK_SECONDS = STUCK_SECONDS
    worker_env = {"AGON_MATCH_STUCK_SECONDS": str(STUCK_SECONDS)}
    ladder = only_ladder("akropolis", 2)
    worker = pipeline.start_worker(env=worker_env)
    versions = active_bots(pipeline, SLEEPY_BOT, ["slow-ant", "slow-bee"])

    match = ranked_match(ladder, versions)
    wait_running(match, pipeline, for_seconds=1.0)
    first_claim = match.claimed_by

    if killed == "the pool process":
        # The worker survives and is told its task was lost: with acks_late and
        # reject_on_worker_lost the task comes back, finds the match taken, does nothing.
        lost = worker.kill_pool_process()
        wait_for(
            lambda: f"match {match.id} is not queued; nothing to do" in worker.log(),
            timeout=60,
            what="the task given back after the lost pool process to find the match taken",
            explain=pipeline.explain(),
        )
    else:
        lost = worker.tree()
        worker.kill()
        worker = pipeline.start_worker(env=worker_env)

    match.refresh_from_db()
    assert (match.status, match.attempts, match.claimed_by) == (
        Match.Status.RUNNING,
        1,
        first_claim,
    ), "nobody finished the match the killed process was playing"

    if killed == "the pool process":
        # The sweep, as this process sees it (settings), picks the match up once it is stuck.
        requeued = wait_for(
            lambda: requeue_stuck_matches() or None,
            timeout=STUCK_SECONDS + 30,
            what=f"the stuck-match sweep to give match {match.id} back",
            interval=0.5,
        )
        assert requeued == [match.id]
    else:
        # The sweep as beat would run it: a task for the new worker, with its settings.
        assert match.started is not None
        time.sleep(max(0.0, STUCK_SECONDS + 0.5 - (timezone.now() - match.started).total_seconds()))
        tasks.requeue_stuck_matches.delay()

    match = wait_finished(match, pipeline.explain())
    assert match.attempts == 2
    assert match.claimed_by not in ("", first_claim)
    assert match.pipeline_seconds is not None and match.match_seconds is not None
    assert_finished_exactly_once(match)
    # The killed processes' boxes, frozen between turns, went with the next boxes made.
    assert_processes_gone(lost, what="the killed processes and their boxes to be gone", timeout=15)


def test_a_match_whose_task_is_sent_twice_is_played_once(pipeline: Pipeline) -> None:
    ladder = only_ladder("akropolis", 2)
    worker = pipeline.start_worker(concurrency=2)
    versions = active_bots(
        pipeline, (EXAMPLE_BOTS / "random_bot.py").read_bytes(), ["twin-ant", "twin-bee"]
    )

    match = ranked_match(ladder, versions)  # one task, sent when the transaction commits
    tasks.run_match.delay(match.id)  # and the same task again

    match = wait_finished(match, pipeline.explain())
    wait_for(
        lambda: f"match {match.id} is not queued; nothing to do" in worker.log(),
        timeout=60,
        what="the second task to find the match taken",
        explain=pipeline.explain(),
    )
    match.refresh_from_db()
    assert match.attempts == 1
    assert Ladder.objects.get(id=ladder.id).matches.count() == 1
    assert_finished_exactly_once(match)
