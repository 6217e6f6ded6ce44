"""The Celery app: `celery -A agon.celery worker` (platform/ on the path)."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "agon.settings.local")

app = Celery("agon")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["agon.matches", "agon.ladders"])


@task_prerun.connect
@task_postrun.connect
def database_connections_between_tasks(**kwargs: Any) -> None:
    """Between tasks, database connections follow Django's rules as between requests:
    closed once too old (CONN_MAX_AGE) or broken, else kept for the next task (see
    CELERY_DB_REUSE_MAX in the settings)."""
    from django.db import close_old_connections

    close_old_connections()
