"""A season on a short clock, played by real workers and beat on each broker: the
competition opens, its ladder plays ranked matches, the worker is killed in the middle
of the freeze (its transaction waits on a row the test holds), a new worker freezes it
once, the final is played by real matches on the frozen versions, the archive is
written, and every notice reaches a real webhook receiver exactly once."""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from datetime import timedelta

import psycopg
import pytest
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
from tests.platform.pipeline.support import only_ladder, py_upload, wait_for
from tests.platform.pipeline.support import test_database_url as database_url
from tests.platform.support import BOT_SOURCE, pass_validation

pytestmark = pytest.mark.django_db(transaction=True)

Phase = Competition.Phase
SHORT_CLOCK = {
    # Beat's other tasks keep their defaults: the file-system broker takes a message a
    # poll (half a second), and a default queue fuller than that starves the matches'.
    "AGON_COMPETITION_SECONDS": "2",
    "AGON_WEBHOOKS_ALLOW_PRIVATE": "true",
    "AGON_NOTIFICATION_BACKOFF_SECONDS": "0.5",
}
OPEN_SECONDS = 40.0
"""From the start of the first worker to the freeze: the ladder plays meanwhile."""
FROZEN_SECONDS = 5.0
RECEIVER_PORT = int(os.environ.get("AGON_TEST_RECEIVER_PORT", "0"))
"""The webhook receiver's port (0: any free one)."""


def report(figure: str) -> None:
    print(f"\n[figure] {figure}")


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


def test_a_season_survives_a_worker_killed_at_the_freeze_and_tells_everyone_once(
    pipeline: Pipeline, broker: str, settings: Settings
) -> None:
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
            name=f"Short season on {broker}",
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
        last_entry = competition.entries.order_by("id").last()
        assert last_entry is not None

        first = pipeline.start_worker(beat=True, env=SHORT_CLOCK)
        wait_phase(competition, Phase.OPEN, pipeline, timeout=60)
        wait_for(
            lambda: Match.objects.filter(ladder=ladder, status=Match.Status.FINISHED).count() >= 2,
            timeout=OPEN_SECONDS,
            what="ranked matches on the competition's ladder",
            explain=pipeline.explain(),
        )

        # The freeze locks the entries one by one: the test holds the last one's row, so
        # the worker's freeze waits in the middle of its transaction; it is killed there.
        with psycopg.connect(database_url(), autocommit=False) as holder:
            holder.execute(
                "SELECT id FROM competitions_competitionentry WHERE id = %s FOR UPDATE",
                [last_entry.id],
            )
            wait_for(
                lambda: waiting_on_a_lock("competitions_competitionentry"),
                timeout=OPEN_SECONDS + 30,
                what="the freeze to wait on the entry the test holds",
                explain=pipeline.explain(),
            )
            first.kill()
            killed = time.monotonic()
            assert phase_of(competition) == Phase.OPEN  # nothing of the freeze committed
            assert not competition.entries.exclude(version=None).exists()
            ladder.refresh_from_db()
            assert not ladder.pinned
            holder.rollback()

        pipeline.start_worker(beat=True, env=SHORT_CLOCK)
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
        f"{broker}: season on a short clock: {ranked} ranked matches on its ladder; worker "
        f"killed in the freeze -> frozen {refrozen:.1f} s later (a new worker's start "
        f"included); final of {len(games)} games played and archived in {final_seconds:.1f} s; "
        f"{len(notified)} notices, each delivered once"
    )
