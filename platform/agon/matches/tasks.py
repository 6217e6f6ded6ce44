"""Celery tasks: thin adapters that take ids and call services."""

from __future__ import annotations

import logging

from celery import shared_task

from agon.logs import log_context
from agon.matches import services
from sandbox.backends import SandboxError

log = logging.getLogger(__name__)


@shared_task(acks_late=True, reject_on_worker_lost=True, max_retries=3)
def run_match(match_id: int) -> bool:
    """Play one match. A bot's failure is a recorded result; only the sandbox itself
    failing is an error, and the stuck-match sweep retries those."""
    with log_context(match_id=match_id):
        try:
            return services.match_execute(match_id=match_id)
        except SandboxError:
            log.exception("the sandbox failed on match %s", match_id)
            raise


@shared_task
def requeue_stuck_matches() -> list[int]:
    return services.requeue_stuck_matches()
