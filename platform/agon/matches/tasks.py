"""Celery tasks: thin adapters that take ids and call services."""

from __future__ import annotations

import logging

from celery import Task, shared_task
from django.conf import settings

from agon.logs import log_context
from agon.matches import background, services
from agon.sandboxing import SandboxError

log = logging.getLogger(__name__)


@shared_task(
    bind=True,
    acks_late=True,
    # A pool process killed mid-match (the OOM killer, a crash) gives its message back:
    # the task comes again at once, finds the dead run's heartbeat still fresh, and
    # retries itself for when it is stale, then takes the match over.
    reject_on_worker_lost=True,
    # Each retry is a wait for a silent run or a new try after a sandbox error: about one
    # per attempt at the match. Past that the task gives up, and the sweep (which fails a
    # match after its last attempt) has the last word.
    max_retries=settings.AGON_MATCH_MAX_ATTEMPTS,
    default_retry_delay=10,  # after a sandbox error
)
def run_match(self: Task[[int], bool], match_id: int) -> bool:
    """Play one match. A bot's failure is a recorded result; only the sandbox itself
    failing is an error, retried after a few seconds."""
    with log_context(match_id=match_id):
        try:
            return services.match_execute(match_id=match_id)
        except services.MatchHeld as held:
            if self.request.retries >= (self.max_retries or 0):
                log.info("%s; this task gives up, the sweep watches that run", held)
                return False
            log.info("%s; looking again in %.1f s", held, held.retry_in)
            raise self.retry(countdown=held.retry_in) from None
        except SandboxError as error:
            log.exception("the sandbox failed on match %s", match_id)
            raise self.retry(exc=error) from error


@shared_task
def requeue_stuck_matches() -> list[int]:
    return services.requeue_stuck_matches()


@shared_task
def background_dispatch() -> int:
    """Beat's: turn waiting background games into matches while the share has room."""
    return background.background_dispatch()
