"""The analyses have a queue of their own, which `agon up`'s worker reads before the
ranked matches and
compose's analysis worker alone; beat schedules them; no match worker waits on one."""

from __future__ import annotations

from pathlib import Path

import yaml
from django.conf import settings

from agon.analysis.services import ANALYSIS_TASK
from agon.celery import app
from engine.search.analysis import LEVELS

REPO_DIR = Path(__file__).resolve().parents[3]


def test_the_analysis_task_goes_to_its_queue_which_agon_up_reads_before_ranked_matches() -> None:
    queue = settings.AGON_ANALYSIS_QUEUE
    assert queue == "analysis"
    assert settings.CELERY_TASK_ROUTES[ANALYSIS_TASK] == {"queue": queue}
    # Ranked matches never run out (matchmaking keeps some queued): read after them, the
    # analyses would wait for ever. The day's budget bounds what they take from them.
    queues = settings.AGON_WORKER_QUEUES
    assert queues.index(queue) == queues.index(settings.AGON_MATCH_QUEUE) - 1
    assert queue not in settings.AGON_MATCH_WORKER_QUEUES
    app.loader.import_default_modules()
    assert {ANALYSIS_TASK, "agon.analysis.tasks.analyses_schedule"} <= set(app.tasks)


def test_beat_sends_the_matches_to_be_analysed() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["analysis"]
    assert entry["task"] == "agon.analysis.tasks.analyses_schedule"
    assert entry["schedule"] == settings.AGON_ANALYSIS_SECONDS


def test_the_settings_levels_are_the_search_bots() -> None:
    assert settings.AGON_ANALYSIS_LEVEL in LEVELS


def test_compose_runs_a_worker_for_the_analysis_queue_alone() -> None:
    compose = yaml.safe_load((REPO_DIR / "deploy" / "compose.yaml").read_text())
    command = compose["services"]["analysis-worker"]["command"]
    (queues,) = [part for part in command if part.startswith("--queues=")]
    assert queues == "--queues=${AGON_ANALYSIS_QUEUE:-analysis}"
    for name, service in compose["services"].items():
        if name != "analysis-worker" and "worker" in name:
            assert "analysis" not in " ".join(service["command"])
