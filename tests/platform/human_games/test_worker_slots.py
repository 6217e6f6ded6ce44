"""The cap on human games per worker: a worker plays at most AGON_HUMAN_GAMES_PER_WORKER
at once (each holds a pool process while its human thinks); one more waits, queued and
unclaimed, and its task looks again later."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from pytest_django import Settings

from agon.human_games.services import human_game_create
from agon.matches import services, tasks
from agon.matches.human_slots import SLOTS_FOLDER, WorkerFull, human_game_slot
from agon.matches.models import Match


def test_a_worker_holds_at_most_its_slots_and_a_freed_slot_is_taken_again(
    tmp_path: Path,
) -> None:
    with human_game_slot(workdir=tmp_path, slots=2, match_id=1) as first:
        with human_game_slot(workdir=tmp_path, slots=2, match_id=2) as second:
            assert (first, second) == (0, 1)
            full = pytest.raises(WorkerFull, match="already plays its 2 human games")
            with full, human_game_slot(workdir=tmp_path, slots=2, match_id=3):
                pass
        with human_game_slot(workdir=tmp_path, slots=2, match_id=3) as third:
            assert third == 1


def test_a_slot_held_by_another_process_counts_and_comes_back_when_it_dies(
    tmp_path: Path,
) -> None:
    holder = subprocess.Popen(  # noqa: S603 (this Python, a fixed script)
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys; d = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT);"
            "fcntl.flock(d, fcntl.LOCK_EX); print('held', flush=True); sys.stdin.read()",
            str(tmp_path / SLOTS_FOLDER / "0"),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    (tmp_path / SLOTS_FOLDER).mkdir(exist_ok=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(WorkerFull), human_game_slot(workdir=tmp_path, slots=1, match_id=1):
            pass
    finally:
        holder.kill()
        holder.wait()
    with human_game_slot(workdir=tmp_path, slots=1, match_id=1) as slot:
        assert slot == 0


@pytest.mark.django_db
def test_a_human_game_sent_to_a_full_worker_stays_queued_and_unclaimed(
    alice: User, settings: Settings, tmp_path: Path
) -> None:
    settings.AGON_WORK_DIR = tmp_path
    settings.AGON_HUMAN_GAMES_PER_WORKER = 1
    match = human_game_create(user=alice, game="akropolis", seat=0, opponents=["greedy"])
    playing = human_game_slot(workdir=tmp_path, slots=1, match_id=0)  # a game it plays
    with playing, pytest.raises(WorkerFull):
        services.match_execute(match_id=match.id, human=True)
    match.refresh_from_db()
    assert match.status == Match.Status.QUEUED
    assert match.attempts == 0 and match.claimed_by == ""


@pytest.mark.django_db
def test_a_human_games_task_says_so_and_a_full_worker_retries_it_without_using_an_attempt(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[dict[str, Any]] = []

    class FakeCelery:
        @staticmethod
        def send_task(name: str, args: tuple[int], **options: Any) -> None:
            sent.append({"args": args, **options})

    monkeypatch.setattr(services, "celery_app", FakeCelery)
    match = human_game_create(user=alice, game="akropolis", seat=0, opponents=["greedy"])
    services._enqueue(match.id)
    assert sent[-1]["args"] == (match.id,) and sent[-1]["kwargs"] == {"human": True}

    def full(*, match_id: int, human: bool) -> bool:
        assert human
        raise WorkerFull(match_id, 1)

    monkeypatch.setattr(services, "match_execute", full)
    retried: dict[str, Any] = {}

    class Retry(Exception):
        pass

    class FakeTask:
        max_retries = 3

        class request:  # Celery's name
            retries = 3

        @staticmethod
        def retry(**options: Any) -> Retry:
            retried.update(options)
            return Retry()

    with pytest.raises(Retry):
        tasks._execute(FakeTask, match.id, True)  # type: ignore[arg-type]
    assert retried == {"countdown": WorkerFull(0, 1).retry_in, "max_retries": 4}
