"""Deliveries have a queue of their own, which `agon up`'s worker and compose's
default-worker read, and beat sweeps the overdue ones."""

from __future__ import annotations

from pathlib import Path

import yaml
from django.conf import settings

from agon.celery import app

REPO_DIR = Path(__file__).resolve().parents[3]


def test_the_delivery_tasks_go_to_the_notifications_queue() -> None:
    routes = settings.CELERY_TASK_ROUTES
    queue = settings.AGON_NOTIFICATION_QUEUE
    assert queue == "notifications"
    assert routes["agon.notifications.tasks.deliver"] == {"queue": queue}
    assert routes["agon.notifications.tasks.sweep"] == {"queue": queue}
    assert queue in settings.AGON_WORKER_QUEUES
    assert queue not in settings.AGON_MATCH_WORKER_QUEUES, "no match worker waits on a webhook"
    app.loader.import_default_modules()
    assert {"agon.notifications.tasks.deliver", "agon.notifications.tasks.sweep"} <= set(app.tasks)


def test_beat_sweeps_the_overdue_deliveries() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["notifications-sweep"]
    assert entry["task"] == "agon.notifications.tasks.sweep"


def test_composes_default_worker_reads_the_notifications_queue() -> None:
    compose = yaml.safe_load((REPO_DIR / "deploy" / "compose.yaml").read_text())
    command = compose["services"]["default-worker"]["command"]
    (queues,) = [part for part in command if part.startswith("--queues=")]
    assert queues == "--queues=default,${AGON_NOTIFICATION_QUEUE:-notifications}"
    for name, service in compose["services"].items():
        if name != "default-worker" and "worker" in name:
            assert "notifications" not in " ".join(service["command"])
