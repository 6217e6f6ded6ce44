"""A season on a short clock, played by real workers and beat on each of the two stacks:
PostgreSQL and Redis (production's), and SQLite and the file-system broker (what
`agon up` runs). The competition opens, its ladder plays ranked matches, the worker is
killed in the freeze, a new worker freezes it once, the final is played by real matches
on the frozen versions, the archive is written, and every notice reaches a real webhook
receiver exactly once.

Where the freeze is caught differs: on PostgreSQL the freeze locks the entries one by one
and the test holds the last one's row, so the worker dies in the middle of the freeze's
transaction; on SQLite a transaction takes the one write lock as it begins, so the test
holds that lock and the worker dies with its freeze received and waiting for it. The
suite runs on PostgreSQL; the SQLite test runs in its SQLite run
(tests/platform/test_private_events_on_sqlite.py), whose test database is a file the
workers share (AGON_TEST_SQLITE_FILE)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from pytest_django import Settings

from agon.bots.models import Bot, BotVersion
from agon.bots.services import bot_submit, version_submit
from agon.competitions.models import ArchivedGame, ArchivedStanding, Competition
from agon.competitions.services import competition_create, competition_enter
from agon.matches.models import Match
from agon.notifications.models import Notification
from agon.notifications.services import webhook_create
from tests.platform.notifications.receiver import receiver
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import (
    CeleryWorker,
    embedded_broker,
    only_ladder,
    py_upload,
    wait_for,
)
from tests.platform.pipeline.support import test_database_url as database_url
from tests.platform.support import BOT_SOURCE, pass_validation

pytestmark = pytest.mark.django_db(transaction=True)

Phase = Competition.Phase
SHORT_CLOCK = {
    # Beat's other tasks keep their defaults but the final's rounds (every 2 s): the
    # file-system broker takes a message a poll (0.2 s here, `agon up`'s 0.5 s by
    # default), and a default queue fuller than that starves the matches'.
    "AGON_COMPETITION_SECONDS": "2",
    "AGON_TOURNAMENT_SECONDS": "2",
    "AGON_BROKER_POLLING_SECONDS": "0.2",
    # On SQLite: a worker's transactions wait this long for the write lock the test
    # holds at the freeze (while the next worker starts) rather than give up.
    "AGON_SQLITE_TIMEOUT": "120",
    "AGON_WEBHOOKS_ALLOW_PRIVATE": "true",
    "AGON_NOTIFICATION_BACKOFF_SECONDS": "0.5",
}
OPEN_SECONDS = 600.0
"""The freeze as the competition is made: far enough for its ladder to play a ranked
match however loaded the machine; the test then brings it to FREEZE_SECONDS away."""
FREEZE_SECONDS = 5.0
"""Enough for the test to take its lock before the freeze is due, however loaded."""
FROZEN_SECONDS = 5.0
RECEIVER_PORT = int(os.environ.get("AGON_TEST_RECEIVER_PORT", "0"))
"""The webhook receiver's port (0: any free one)."""
ADVANCE_RECEIVED = re.compile(r"agon\.competitions\.tasks\.competitions_advance\[[^]]+\] received")
FIGURE = "[figure] "


def report(figure: str) -> None:
    print(f"\n{FIGURE}{figure}")


def on_sqlite() -> bool:
    return bool(settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"))


def phase_of(competition: Competition) -> str:
    competition.refresh_from_db()
    return str(competition.phase)


ORDER = [Phase.UPCOMING, Phase.OPEN, Phase.FROZEN, Phase.FINAL, Phase.FINISHED]


def wait_phase(competition: Competition, phase: str, pipeline: Pipeline, timeout: float) -> float:
    """Until the competition is in `phase` or a later one (a step may pass a phase at
    once when the next one is due too); the time it took."""
    started = time.monotonic()
    wait_for(
        lambda: phase_of(competition) in ORDER[ORDER.index(Phase(phase)) :],
        timeout=timeout,
        what=f"competition {competition.id} to be {phase} (it is {competition.phase})",
        explain=pipeline.explain(),
    )
    return time.monotonic() - started


def waiting_on_a_lock(table: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND datname = current_database() AND query LIKE %s",
            [f"%{table}%"],
        )
        return bool(cursor.fetchone()[0])


FreezeCatcher = Callable[
    [Competition, CeleryWorker, Pipeline], contextlib.AbstractContextManager[None]
]


@contextlib.contextmanager
def caught_on_a_row(
    competition: Competition, worker: CeleryWorker, pipeline: Pipeline
) -> Iterator[None]:
    """PostgreSQL: the freeze locks the entries one by one; the test holds the last one's
    row, so the worker's freeze waits in the middle of its transaction."""
    last_entry = competition.entries.order_by("id").last()
    assert last_entry is not None
    with psycopg.connect(database_url(), autocommit=False) as holder:
        holder.execute(
            "SELECT id FROM competitions_competitionentry WHERE id = %s FOR UPDATE",
            [last_entry.id],
        )
        wait_for(
            lambda: waiting_on_a_lock("competitions_competitionentry"),
            timeout=FREEZE_SECONDS + 30,
            what="the freeze to wait on the entry the test holds",
            explain=pipeline.explain(),
        )
        yield
        holder.rollback()


@contextlib.contextmanager
def caught_at_the_write_lock(
    competition: Competition, worker: CeleryWorker, pipeline: Pipeline
) -> Iterator[None]:
    """SQLite: a transaction takes the database's one write lock as it begins. The test
    takes it just before the freeze is due, then waits until the worker has received a
    phase step after that: the freeze, waiting for the lock."""
    wait_until(competition.freezes - timedelta(seconds=0.5))
    holder = sqlite3.connect(
        str(connection.settings_dict["NAME"]), timeout=60, isolation_level=None
    )
    try:
        holder.execute("BEGIN IMMEDIATE")
        wait_until(competition.freezes + timedelta(seconds=0.1))
        due = len(worker.log())
        wait_for(
            lambda: ADVANCE_RECEIVED.search(worker.log()[due:]),
            timeout=30,
            what="the worker to receive the freeze while the test holds the write lock",
            explain=pipeline.explain(),
        )
        yield
        holder.execute("ROLLBACK")
    finally:
        holder.close()


def wait_until(moment: datetime) -> None:
    time.sleep(max(0.0, (moment - timezone.now()).total_seconds()))


def entrants() -> list[Bot]:
    made = []
    for name in ("ant", "bee", "cat"):
        owner = User.objects.create_user(f"{name}-author")
        bot = bot_submit(
            owner=owner, name=name, game="akropolis", upload=py_upload("main.py", BOT_SOURCE)
        )
        pass_validation(bot.versions.get())
        made.append(bot)
    return made


def test_a_season_on_postgresql_and_redis(pipeline: Pipeline, settings: Settings) -> None:
    if on_sqlite():
        pytest.skip("this run is the SQLite one: its stack is the other test's")
    a_season(pipeline, settings, "PostgreSQL + Redis", caught_on_a_row)


def test_a_season_on_sqlite_and_the_file_system_broker(
    request: pytest.FixtureRequest, settings: Settings
) -> None:
    if not on_sqlite():
        pytest.skip("runs in the SQLite run (tests/platform/test_private_events_on_sqlite.py)")
    pipeline: Pipeline = request.getfixturevalue("pipeline")
    with embedded_broker(settings, pipeline.folder / "broker"):
        # Beat's other steps wait for the lock too, each holding a process of the worker
        # (which takes a message only when it has a process free): room for the freeze.
        a_season(pipeline, settings, "SQLite + file-system broker", caught_at_the_write_lock, 4)


def a_season(
    pipeline: Pipeline, settings: Settings, stack: str, catch: FreezeCatcher, concurrency: int = 1
) -> None:
    """The season; the first worker runs `concurrency` processes."""
    season_started = time.monotonic()
    settings.AGON_WEBHOOKS_ALLOW_PRIVATE = True
    only_ladder("akropolis", 2)
    bots = entrants()
    staff = User.objects.create_user("organiser", is_staff=True)
    with receiver(port=RECEIVER_PORT) as hooks:
        for bot in bots:
            webhook_create(user=bot.owner, url=hooks.url, style="generic")
        begun = timezone.now()
        competition = competition_create(
            creator=staff,
            name=f"Short season on {stack}",
            game="akropolis",
            player_counts=[2],
            opens=begun + timedelta(seconds=1),
            freezes=begun + timedelta(seconds=OPEN_SECONDS),
            final_starts=begun + timedelta(seconds=OPEN_SECONDS + FROZEN_SECONDS),
            final_format="round-robin",
            final_size=2,
        )
        for bot in bots:
            competition_enter(user=bot.owner, competition_id=competition.id, bot_id=bot.id)
        ladder = competition.ladders.get()

        first = pipeline.start_worker(beat=True, env=SHORT_CLOCK, concurrency=concurrency)
        wait_phase(competition, Phase.OPEN, pipeline, timeout=60)
        wait_for(
            lambda: Match.objects.filter(ladder=ladder, status=Match.Status.FINISHED).exists(),
            timeout=120,
            what="a ranked match on the competition's ladder",
            explain=pipeline.explain(),
        )
        # Its dates brought forward, as staff may in the admin: the freeze is due soon.
        now = timezone.now()
        Competition.objects.filter(id=competition.id).update(
            freezes=now + timedelta(seconds=FREEZE_SECONDS),
            final_starts=now + timedelta(seconds=FREEZE_SECONDS + FROZEN_SECONDS),
        )
        competition.refresh_from_db()

        with catch(competition, first, pipeline):
            # The next worker starts meanwhile (its freeze waits as the first one's does),
            # then the first one dies in its freeze.
            pipeline.start_worker(beat=True, env=SHORT_CLOCK)
            first.kill()
            killed = time.monotonic()
            assert phase_of(competition) == Phase.OPEN  # nothing of the freeze committed
            assert not competition.entries.exclude(version=None).exists()
            ladder.refresh_from_db()
            assert not ladder.pinned

        wait_phase(competition, Phase.FROZEN, pipeline, timeout=60)
        refrozen = time.monotonic() - killed
        frozen = dict(competition.entries.values_list("bot_id", "version_id"))
        assert frozen == {bot.id: bot.versions.get().id for bot in bots}

        # A new version after the freeze plays elsewhere: not in the final.
        newer = version_submit(bot=bots[0], upload=py_upload("main.py", BOT_SOURCE + b"# v2\n"))
        wait_for(
            lambda: BotVersion.objects.get(id=newer.id).status == BotVersion.Status.ACTIVE,
            timeout=120,
            what="the new version to pass its validation",
            explain=pipeline.explain(),
        )

        wait_phase(competition, Phase.FINAL, pipeline, timeout=60)
        final_started = time.monotonic()
        wait_phase(competition, Phase.FINISHED, pipeline, timeout=300)
        final_seconds = time.monotonic() - final_started

        notified = {
            note.id: (note.user.username, note.key)
            for note in Notification.objects.filter(kind__startswith="competition_")
        }

        def delivered() -> Counter[int]:
            return Counter(json.loads(hook.body)["id"] for hook in hooks.received)

        wait_for(
            lambda: set(delivered()) >= set(notified),
            timeout=60,
            what="every competition notice at the webhook receiver",
            explain=pipeline.explain(),
        )
        time.sleep(2)  # a duplicate would come now

    assert competition.final is not None
    finalists = set(competition.final.entries.values_list("bot_id", "version_id"))
    assert finalists <= set(frozen.items()) and len(finalists) == 2
    assert newer.id not in {version for _, version in finalists}
    assert ArchivedStanding.objects.filter(competition=competition).count() == 3
    games = list(ArchivedGame.objects.filter(competition=competition))
    assert len(games) == competition.final.games.count() == 2
    assert all(game.match_id and game.replay and game.rules_version == 1 for game in games)

    told = Counter(key for _, key in notified.values())
    phases = ("open", "frozen", "final")
    for phase in phases:
        assert told[f"competition_phase:{competition.id}:{phase}"] == 3
    assert told[f"competition_result:{competition.id}"] == 3
    assert len(notified) == 3 * (len(phases) + 1)
    counts = delivered()
    assert all(counts[note_id] == 1 for note_id in notified), (counts, notified)
    logs = "".join(worker.log() for worker in pipeline.workers)
    for phase in (*phases, "finished"):
        assert logs.count(f"competition {competition.id}: {phase}") == 1, phase
    ranked = Match.objects.filter(ladder=ladder, status=Match.Status.FINISHED).count()
    report(
        f"{stack}: season on a short clock in {time.monotonic() - season_started:.0f} s: "
        f"{ranked} ranked matches on its ladder; worker killed in the freeze -> frozen "
        f"{refrozen:.1f} s later (by the next worker, started before); final of {len(games)} "
        f"games played and archived in {final_seconds:.1f} s; {len(notified)} notices, "
        "each delivered once"
    )
