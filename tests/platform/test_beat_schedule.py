"""Every task beat sends is one a worker knows: a worker discovers tasks in the apps
agon.celery names, and discards a message of any other (beat would send it in vain)."""

from __future__ import annotations

from django.conf import settings

from agon.celery import app


def test_every_scheduled_task_is_registered_with_the_worker_app() -> None:
    app.loader.import_default_modules()  # what a worker does at start
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled - set(app.tasks) == set()
    assert "agon.tournaments.tasks.tournament_advance" in app.tasks
