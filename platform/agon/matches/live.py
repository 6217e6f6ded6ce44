"""A running match's moves so far, for those watching it.

The worker playing a match is told of every action (`run_match`'s `on_turn`) and writes
the actions so far to `live/match-<id>.json` in the default storage, at most once per
`LIVE_WRITE_SECONDS`; the web reads that file to show the match as it goes. The stored
replay replaces it once the match has finished, and the file is then removed. A reader
that catches the file while it is being rewritten sees nothing new this time, and the
next poll catches up.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from engine.core import JSON

LIVE_WRITE_SECONDS = 1.0

log = logging.getLogger(__name__)


def live_name(match_id: int) -> str:
    return f"live/match-{match_id}.json"


class LiveRecorder:
    """An `on_turn` callback that keeps the actions and writes them now and then."""

    def __init__(
        self,
        match_id: int,
        *,
        interval: float = LIVE_WRITE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.match_id = match_id
        self.interval = interval
        self.clock = clock
        self.actions: list[JSON] = []
        self.written_at: float | None = None
        self.broken = False

    def __call__(self, state: Any, seat: int, action: JSON) -> None:
        self.actions.append(action)
        now = self.clock()
        if self.written_at is None or now - self.written_at >= self.interval:
            self.flush()
            self.written_at = now

    def flush(self) -> None:
        if self.broken:
            return
        name = live_name(self.match_id)
        data = json.dumps({"actions": self.actions}, separators=(",", ":"))
        try:
            default_storage.delete(name)
            default_storage.save(name, ContentFile(data.encode()))
        except Exception:
            # Watching is a courtesy: a storage failure must not stop the match.
            log.exception(
                "match %s: cannot write its moves so far; not trying again", self.match_id
            )
            self.broken = True


def live_actions(match_id: int) -> list[JSON] | None:
    """The actions written so far, or None if there is no readable file."""
    try:
        with default_storage.open(live_name(match_id), "rb") as stored:
            data = json.loads(stored.read())
    except (OSError, ValueError):
        return None
    actions = data.get("actions") if isinstance(data, dict) else None
    return actions if isinstance(actions, list) else None


def live_clear(match_id: int) -> None:
    try:
        default_storage.delete(live_name(match_id))
    except Exception:
        log.exception("match %s: cannot remove its moves so far", match_id)
