"""A match is finished exactly once: when its worker is killed in the middle (played
again within seconds when only the pool process died, within a minute when the whole
worker did, on Redis and on the file-system broker), when its task is delivered twice,
and when a run that fell silent wakes up late.

The tests that wait for a lost run give their workers short clocks (a heartbeat every
0.5 s, stale after 2 s, the sweep every 2 s, Celery's wait for a killed pool process's
result 1 s): the default clocks' waits (10 s each, a sweep every 15 s) took 25-40 s a
test, each run. That the default
clocks keep the promises (seconds, a minute) is checked on the settings themselves, at
the end of this file."""

from __future__ import annotations

import functools
import os
import re
import signal
import time

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from agon.bots.models import BotVersion
from agon.bots.services import bot_submit
from agon.celery import app
from agon.ladders.models import Ladder, RatingChange
from agon.matches import tasks
from agon.matches.models import Match
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import (
    EXAMPLE_BOTS,
    SLEEPY_BOT,
    assert_finished_exactly_once,
    assert_processes_gone,
    only_ladder,
    py_upload,
    wait_finished,
    wait_for,
)
from tests.platform.support import pass_validation, ranked_match

# The database: the tests' `pipeline` fixture's (transactional: its workers see the
# test's rows); the last test reads settings only.

POOL_KILL_TO_FINISHED_SECONDS = 30
"""A match whose pool process was killed is finished within this (the default settings:
its heartbeat stale after 10 s, plus playing it again)."""
WORKER_KILL_TO_FINISHED_SECONDS = 75
"""And one whose whole worker died, once a new worker runs (the sweep every 15 s)."""
REPLAY_SECONDS = 15
"""What playing a lost match again takes at most besides the waits for its heartbeat to
go stale and for the sweep (a sleepy match lasts several seconds)."""
QUICK_STALE_SECONDS = 2.0
QUICK_LOST_WAIT_SECONDS = 1.0
QUICK_SWEEP_SECONDS = 2.0
QUICK_HEARTBEAT = {
    "AGON_MATCH_HEARTBEAT_SECONDS": "0.5",
    "AGON_MATCH_STALE_SECONDS": str(QUICK_STALE_SECONDS),
    "AGON_TEST_WORKER_LOST_WAIT_SECONDS": str(QUICK_LOST_WAIT_SECONDS),
}
"""Worker settings for the tests that wait for a heartbeat to go stale, or for the task of
a killed pool process to come back (after Celery's wait for its result: 10 s by
default, over which the stale limit passed unseen)."""
QUICK_SWEEP = {**QUICK_HEARTBEAT, "AGON_REQUEUE_SECONDS": str(QUICK_SWEEP_SECONDS)}
"""And for those that wait for beat's sweep of stuck matches too."""


def pool_kill_wait(*, stale: float, lost_wait: float) -> float:
    """From a pool process's death to its match played again: the task comes back after
    Celery's wait for the dead process's result, and takes the match over once its
    heartbeat is stale (a second later)."""
    return max(lost_wait, stale + 1)


def worker_kill_wait(*, stale: float, sweep: float) -> float:
    """From a whole worker's death to its match queued again (a new worker running):
    its heartbeat stale, then the sweep's next run."""
    return stale + sweep


def default_clocks() -> tuple[float, float, float]:
    """The settings' stale limit, sweep interval and Celery's wait for a lost result."""
    sweep = settings.CELERY_BEAT_SCHEDULE["requeue-stuck-matches"]["schedule"]
    assert isinstance(sweep, float), sweep  # seconds (not a crontab)
    return settings.AGON_MATCH_STALE_SECONDS, sweep, float(app.conf.worker_lost_wait)


def pool_kill_bound() -> float:
    """The default clocks' bound less what the short clocks save: the same room as on
    the default clocks for the rest (the match played again, a loaded machine)."""
    stale, _, lost_wait = default_clocks()
    saved = pool_kill_wait(stale=stale, lost_wait=lost_wait) - pool_kill_wait(
        stale=QUICK_STALE_SECONDS, lost_wait=QUICK_LOST_WAIT_SECONDS
    )
    return POOL_KILL_TO_FINISHED_SECONDS - saved


def worker_kill_bound() -> float:
    """As `pool_kill_bound`, for a whole worker's death (the new worker's start too)."""
    stale, sweep, _ = default_clocks()
    saved = worker_kill_wait(stale=stale, sweep=sweep) - worker_kill_wait(
        stale=QUICK_STALE_SECONDS, sweep=QUICK_SWEEP_SECONDS
    )
    return WORKER_KILL_TO_FINISHED_SECONDS - saved


FROZEN_RUN_ENDED = re.compile(
    r"Task agon\.matches\.tasks\.execute_queued_match\[\S+\] succeeded in .*: False"
)
"""The frozen run's task, in its worker's log, ends without having stored its result."""


def active_bots(source: bytes, names: list[str]) -> list[BotVersion]:
    """Bots uploaded, their validation matches recorded as passed: a validation is not
    what these tests are about, and two slow bots' took a worker 15-25 s. Made before
    any worker runs, so that none plays them (their tasks find them over)."""
    owner = User.objects.create_user("pipeline-owner")
    bots = [
        bot_submit(owner=owner, name=name, game="akropolis", upload=py_upload("main.py", source))
        for name in names
    ]
    return [pass_validation(bot.versions.get()) for bot in bots]


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


def report(figure: str) -> None:
    """A measured figure, shown with `pytest -s`."""
    print(f"\n[figure] {figure}")


def test_a_match_whose_pool_process_is_killed_is_played_again_within_seconds(
    pipeline: Pipeline, broker: str
) -> None:
    ladder = only_ladder("akropolis", 2)
    versions = active_bots(SLEEPY_BOT, ["slow-ant", "slow-bee"])
    worker = pipeline.start_worker(env=QUICK_HEARTBEAT)
    match = ranked_match(ladder, versions)
    wait_running(match, pipeline, for_seconds=1.0)
    first_claim = match.claimed_by

    # The worker survives and gives the lost task's message back (reject_on_worker_lost);
    # the task comes again, waits for the dead run's heartbeat to go stale, takes over.
    lost = worker.kill_pool_process()
    killed = time.monotonic()
    match = wait_finished(match, pipeline.explain(), timeout=pool_kill_bound())
    report(
        f"{broker}: pool process killed -> match finished in {time.monotonic() - killed:.1f} s "
        f"(the match itself: {match.match_seconds:.1f} s)"
    )
    assert match.attempts == 2
    assert match.claimed_by not in ("", first_claim)
    assert "this run takes it over" in worker.log()
    assert_finished_exactly_once(match)
    # The killed process's boxes, frozen between turns, went with the next boxes made.
    assert_processes_gone(lost, what="the killed processes and their boxes to be gone", timeout=15)


def test_a_match_whose_whole_worker_is_killed_is_played_by_the_next_worker_within_a_minute(
    pipeline: Pipeline, broker: str
) -> None:
    ladder = only_ladder("akropolis", 2)
    # Two pool processes: the whole worker dies, so how many processes it had does not
    # matter to what follows.
    versions = active_bots(SLEEPY_BOT, ["slow-ant", "slow-bee"])
    worker = pipeline.start_worker(concurrency=2, env=QUICK_HEARTBEAT)
    match = ranked_match(ladder, versions)
    wait_running(match, pipeline, for_seconds=1.0)
    first_claim = match.claimed_by

    # Its message dies with it (the file-system broker) or waits for Redis' visibility
    # timeout (an hour): the sweep, run by beat on the settings' schedule, finds the match
    # by its stale heartbeat. Matchmaking stays out of the way (no other rated match).
    lost = worker.tree()
    worker.kill()
    killed = time.monotonic()
    pipeline.start_worker(beat=True, env={**QUICK_SWEEP, "AGON_MATCHMAKING_SECONDS": "3600"})
    match = wait_finished(match, pipeline.explain(), timeout=worker_kill_bound())
    report(
        f"{broker}: whole worker killed -> match finished in {time.monotonic() - killed:.1f} s "
        f"(a new worker started, the sweep; the match itself: {match.match_seconds:.1f} s)"
    )
    assert match.attempts == 2
    assert match.claimed_by not in ("", first_claim)
    assert_finished_exactly_once(match)
    assert_processes_gone(lost, what="the killed processes and their boxes to be gone", timeout=15)


def test_a_duplicate_task_waits_while_the_first_run_plays_and_never_plays_it_twice(
    pipeline: Pipeline,
) -> None:
    """The match lasts several times the stale limit: only the heartbeat tells the
    duplicate that the first run is alive."""
    ladder = only_ladder("akropolis", 2)
    versions = active_bots(SLEEPY_BOT, ["twin-ant", "twin-bee"])
    worker = pipeline.start_worker(concurrency=2, env=QUICK_HEARTBEAT)
    match = ranked_match(ladder, versions)
    wait_running(match, pipeline, for_seconds=0.5)
    tasks.execute_queued_match.delay(match.id)  # the same task again, while the first run plays

    match = wait_finished(match, pipeline.explain())
    assert match.match_seconds is not None and match.match_seconds > 2 * QUICK_STALE_SECONDS
    # The second task looks again a few times: it finds the match over, or, on a busy
    # machine where the match outlasts its looks, leaves the run to the sweep. Either
    # way it never plays the match.
    wait_for(
        lambda: re.search(
            rf"match {match.id} (is over or unknown; nothing to do|is held by a live run "
            r"\(its heartbeat is fresh\); this task gives up)",
            worker.log(),
        ),
        timeout=30,
        what="the second task to find the match over or leave it to its run",
        explain=pipeline.explain(),
    )
    assert f"match {match.id} is held by a live run" in worker.log()
    assert "takes it over" not in worker.log()
    match.refresh_from_db()
    assert match.attempts == 1
    assert_finished_exactly_once(match)


def test_the_late_result_of_a_run_that_fell_silent_is_dropped(pipeline: Pipeline) -> None:
    """A run frozen (SIGSTOP: it neither plays nor beats) loses its match to the next
    task; woken up, it plays on, and its result is dropped."""
    ladder = only_ladder("akropolis", 2)
    versions = active_bots(SLEEPY_BOT, ["late-ant", "late-bee"])
    first = pipeline.start_worker(env=QUICK_HEARTBEAT)
    match = ranked_match(ladder, versions)
    wait_running(match, pipeline, for_seconds=1.0)
    first_claim = match.claimed_by
    (frozen,) = first.pool_processes()
    os.kill(frozen, signal.SIGSTOP)
    try:
        # Busy with the frozen run, the first worker takes no other message.
        second = pipeline.start_worker(env=QUICK_HEARTBEAT)
        tasks.execute_queued_match.delay(match.id)

        def taken_over() -> bool:
            match.refresh_from_db()
            return match.claimed_by != first_claim

        wait_for(taken_over, timeout=60, what="the second worker to take the match over")
    finally:
        os.kill(frozen, signal.SIGCONT)
    match = wait_finished(match, pipeline.explain())
    wait_for(
        lambda: FROZEN_RUN_ENDED.search(first.log()),
        timeout=60,
        what="the frozen run to end without storing its result",
        explain=pipeline.explain(),
    )
    assert f"match {match.id} was taken from this run" in first.log()
    assert "this run takes it over" in second.log()
    match.refresh_from_db()
    assert match.attempts == 2
    assert match.claimed_by not in ("", first_claim)
    assert_finished_exactly_once(match)


def match_attempt_running(match: Match, attempt: int) -> bool:
    """The match's `attempt`-th run has played for a moment."""
    match.refresh_from_db()
    return (
        match.status == Match.Status.RUNNING
        and match.attempts == attempt
        and match.started is not None
        and (timezone.now() - match.started).total_seconds() >= 1.0
    )


def test_a_match_that_kills_its_worker_every_time_ends_failed(pipeline: Pipeline) -> None:
    ladder = only_ladder("akropolis", 2)
    versions = active_bots(SLEEPY_BOT, ["doomed-ant", "doomed-bee"])
    worker = pipeline.start_worker(env=QUICK_HEARTBEAT)
    match = ranked_match(ladder, versions)
    for attempt in (1, 2, 3):
        wait_for(
            functools.partial(match_attempt_running, match, attempt),
            timeout=60,
            what=f"attempt {attempt} at match {match.id} to be under way",
            explain=pipeline.explain(),
        )
        worker.kill_pool_process()

    def failed() -> Match | None:
        match.refresh_from_db()
        assert match.status != Match.Status.FINISHED
        return match if match.status == Match.Status.FAILED else None

    wait_for(failed, timeout=60, what=f"match {match.id} to fail", explain=pipeline.explain())
    assert (match.attempts, match.error) == (3, "lost its worker 3 times")
    assert RatingChange.objects.filter(match=match).count() == 0


def test_a_match_whose_task_is_sent_twice_is_played_once(pipeline: Pipeline) -> None:
    ladder = only_ladder("akropolis", 2)
    versions = active_bots((EXAMPLE_BOTS / "random_bot.py").read_bytes(), ["twin-ant", "twin-bee"])
    # The second task finds the first run's heartbeat fresh and looks again once it would
    # be stale: 3 s later on the short clock (11 s on the default one).
    worker = pipeline.start_worker(concurrency=2, env=QUICK_HEARTBEAT)

    match = ranked_match(ladder, versions)  # one task, sent when the transaction commits
    tasks.execute_queued_match.delay(match.id)  # and the same task again

    match = wait_finished(match, pipeline.explain())
    wait_for(
        lambda: f"match {match.id} is over or unknown; nothing to do" in worker.log(),
        timeout=60,
        what="the second task to find the match over",
        explain=pipeline.explain(),
    )
    match.refresh_from_db()
    assert match.attempts == 1
    assert Ladder.objects.get(id=ladder.id).matches.count() == 1
    assert_finished_exactly_once(match)


def test_the_default_clocks_play_a_lost_match_again_within_the_promised_times() -> None:
    """The tests above run on short clocks; the default ones keep their promises: a
    killed pool process's match played again within seconds (its heartbeat stale, then
    the match again), a dead worker's within a minute once a new worker runs (stale,
    then the sweep's next run, then the match again)."""
    stale, sweep, lost_wait = default_clocks()
    assert (
        pool_kill_wait(stale=stale, lost_wait=lost_wait) + REPLAY_SECONDS
        <= POOL_KILL_TO_FINISHED_SECONDS
    )
    assert worker_kill_wait(stale=stale, sweep=sweep) + REPLAY_SECONDS <= 60
    # The short clocks leave the same room as the default ones.
    assert 0 < pool_kill_bound() <= POOL_KILL_TO_FINISHED_SECONDS
    assert 0 < worker_kill_bound() <= WORKER_KILL_TO_FINISHED_SECONDS
