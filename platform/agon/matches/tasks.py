"""Celery tasks: thin adapters that take ids and call services.

A match's task is `execute_queued_match`: it claims a queued match and plays it through
`services.match_execute` (which runs it in the sandbox, `sandbox.runner.run_match`, whose
referee is `engine.match.play_match`). Until the task had a name of its own it was
registered as `agon.matches.tasks.run_match`, the name of the sandbox's entry point; a
message sent under that name before an upgrade still waits in the queues, so the old
name stays registered for the same work (`execute_queued_match_by_old_name`), until no
installation can hold such a message any more.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from django.conf import settings

from agon.logs import log_context
from agon.matches import background, services
from agon.matches.human_slots import WorkerFull
from agon.sandboxing import SandboxError

log = logging.getLogger(__name__)

MATCH_TASK_OPTIONS: dict[str, Any] = {
    "bind": True,
    "acks_late": True,
    # A pool process killed mid-match (the OOM killer, a crash) gives its message back:
    # the task comes again at once, finds the dead run's heartbeat still fresh, and
    # retries itself for when it is stale, then takes the match over.
    "reject_on_worker_lost": True,
    # Each retry is a wait for a silent run or a new try after a sandbox error: about one
    # per attempt at the match. Past that the task gives up, and the sweep (which fails a
    # match after its last attempt) has the last word.
    "max_retries": settings.AGON_MATCH_MAX_ATTEMPTS,
    "default_retry_delay": 10,  # after a sandbox error
}


def _execute(task: Task[..., bool], match_id: int, human: bool) -> bool:
    with log_context(match_id=match_id):
        try:
            return services.match_execute(match_id=match_id, human=human)
        except WorkerFull as full:
            # Not an attempt at the match (it was not claimed): a retry more is allowed.
            log.info("%s; looking again in %.0f s", full, full.retry_in)
            raise task.retry(
                countdown=full.retry_in, max_retries=task.request.retries + 1
            ) from None
        except services.MatchHeld as held:
            if task.request.retries >= (task.max_retries or 0):
                log.info("%s; this task gives up, the sweep watches that run", held)
                return False
            log.info("%s; looking again in %.1f s", held, held.retry_in)
            raise task.retry(countdown=held.retry_in) from None
        except SandboxError as error:
            log.exception("the sandbox failed on match %s", match_id)
            raise task.retry(exc=error) from error


@shared_task(name=services.MATCH_TASK, **MATCH_TASK_OPTIONS)
def execute_queued_match(self: Task[..., bool], match_id: int, human: bool = False) -> bool:
    """Play one queued match. A bot's failure is a recorded result; only the sandbox
    itself failing is an error, retried after a few seconds. A `human` game waits for a
    slot of the worker's (agon.matches.human_slots)."""
    return _execute(self, match_id, human)


@shared_task(name=services.MATCH_TASK_OLD_NAME, **MATCH_TASK_OPTIONS)
def execute_queued_match_by_old_name(
    self: Task[..., bool], match_id: int, human: bool = False
) -> bool:
    """`execute_queued_match` for a message sent under the task's old name (its retries
    keep that name: they are sent from this task)."""
    return _execute(self, match_id, human)


@shared_task
def requeue_stuck_matches() -> list[int]:
    return services.requeue_stuck_matches()


@shared_task
def background_dispatch() -> int:
    """Beat's: turn waiting background games into matches while the share has room."""
    return background.background_dispatch()
