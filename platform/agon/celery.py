"""The Celery app: `celery -A agon.celery worker` (platform/ on the path).

It knows no app of the platform: a worker's metrics server is started by the ops app's
handler of `worker_init` (agon.ops.apps), connected when Celery sets Django up."""

from __future__ import annotations

import logging.config
import os
from collections.abc import Mapping
from contextvars import Token
from typing import Any

from celery import Celery
from celery.signals import (
    celeryd_after_setup,
    setup_logging,
    task_postrun,
    task_prerun,
)
from django.conf import settings
from django.db import close_old_connections

from agon.logs import log_context_enter, log_context_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "agon.settings.local")
log = logging.getLogger(__name__)

app = Celery("agon")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(
    [
        "agon.matches",
        "agon.ladders",
        "agon.tournaments",
        "agon.datasets",
        "agon.notifications",
        "agon.game_stats",
        "agon.analysis",
        "agon.competitions",
    ]
)


def logging_from_settings(**kwargs: Any) -> None:
    """Workers and beat log as the web does (LOGGING), not in Celery's own format, and
    Python's warnings are records too (Django routes them so, but only once set up)."""
    logging.config.dictConfig(settings.LOGGING)
    logging.captureWarnings(True)


def banner_as_a_record(sender: str, instance: Any, **kwargs: Any) -> None:
    """The worker's start-up banner, which it prints as text, logged as one record."""
    instance.quiet = True
    log.info("worker %s starting: %s", sender, instance.startup_info(artlines=False).strip())


# Plain logs keep Celery's format, which `agon up` shows; JSON logs are for machines and
# must be JSON on every line. Celery leaves logging alone once this signal has a receiver.
# (Beat prints its banner before any signal: start it with `celery --quiet beat`.)
if settings.AGON_LOG_FORMAT == "json":
    logging_from_settings()  # now: the worker warns about its privileges before any signal
    setup_logging.connect(logging_from_settings, weak=False)
    celeryd_after_setup.connect(banner_as_a_record, weak=False)

_task_log_contexts: dict[str, Token[Mapping[str, object]]] = {}


@task_prerun.connect
def task_log_context_enter(task_id: str, task: Any, **kwargs: Any) -> None:
    """Every record a task logs carries its id and name."""
    _task_log_contexts[task_id] = log_context_enter(task_id=task_id, task=task.name)


@task_postrun.connect
def task_log_context_exit(task_id: str, **kwargs: Any) -> None:
    token = _task_log_contexts.pop(task_id, None)
    if token is not None:
        log_context_exit(token)


@task_prerun.connect
@task_postrun.connect
def database_connections_between_tasks(**kwargs: Any) -> None:
    """Between tasks, database connections follow Django's rules as between requests:
    closed once too old (CONN_MAX_AGE) or broken, else kept for the next task (see
    CELERY_DB_REUSE_MAX in the settings)."""
    close_old_connections()
