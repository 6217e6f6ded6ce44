"""A run's heartbeat: while it plays, a thread says every AGON_MATCH_HEARTBEAT_SECONDS
that the run holding the match is alive; a match whose heartbeat is stale lost its run,
and is taken over (`services.match_claim`, `services.requeue_stuck_matches`)."""

from __future__ import annotations

import contextvars
import logging
import threading

from django.conf import settings
from django.db import DatabaseError, connection, connections, transaction
from django.utils import timezone

from agon.matches.models import Match

log = logging.getLogger(__name__)


def transaction_bounded() -> None:
    """In the current transaction: should its process stop in the middle of it (a run
    frozen by SIGSTOP, a machine swapping), PostgreSQL ends the session after half the
    stale limit, so the lock it holds on the match's row never keeps the next run from
    taking a silent match over. Elsewhere (SQLite) a transaction locks nothing to hold."""
    if connection.vendor != "postgresql":
        return
    milliseconds = max(1000, int(settings.AGON_MATCH_STALE_SECONDS * 500))
    with connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL idle_in_transaction_session_timeout = {milliseconds}")


def match_heartbeat(*, match_id: int, token: str) -> bool | None:
    """Say the run holding `token` is alive: True; False once the match was taken from it
    (by another run or the sweep); None when there is nothing to say: the row is locked
    (being finished or taken over: try at the next beat rather than wait), or this run
    has just ended the match itself."""
    with transaction.atomic():
        transaction_bounded()
        match = (
            Match.objects.select_for_update(skip_locked=True)
            .filter(id=match_id)
            .only("status", "claimed_by")
            .first()
        )
        if match is None:
            return None
        if match.claimed_by != token:
            return False
        if match.status != Match.Status.RUNNING:
            return None
        Match.objects.filter(id=match_id).update(heartbeat=timezone.now())
        return True


class Heartbeat:
    """A thread that keeps a run's heartbeat fresh every AGON_MATCH_HEARTBEAT_SECONDS
    until stopped. It has its own database connection, and the log context of the run."""

    def __init__(self, *, match_id: int, token: str) -> None:
        self.match_id = match_id
        self.token = token
        self._stop = threading.Event()
        context = contextvars.copy_context()
        self._thread = threading.Thread(
            target=context.run, args=(self._beat,), name=f"heartbeat-{match_id}", daemon=True
        )

    def start(self) -> Heartbeat:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _beat(self) -> None:
        try:
            while not self._stop.wait(settings.AGON_MATCH_HEARTBEAT_SECONDS):
                try:
                    alive = match_heartbeat(match_id=self.match_id, token=self.token)
                except DatabaseError:
                    # A database blip: the next beat may pass; enough missed ones and
                    # another run takes over, which is right if it lasts.
                    log.warning("match %s: the heartbeat failed", self.match_id, exc_info=True)
                    connections.close_all()
                    continue
                if alive is False:
                    # The run plays on (it cannot be stopped from here); finishing drops
                    # its result, by the token.
                    log.warning(
                        "match %s was taken from this run; its result will be dropped",
                        self.match_id,
                    )
                    return
        finally:
            connections.close_all()  # this thread's connection
