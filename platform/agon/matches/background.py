"""The background share of the match workers: games that users ask for in bulk.

Private tournaments and version tests can each ask for hundreds of games at once. Were
they all queued, workers would play nothing else for as long as they last, and the
ladders would stop. Instead their games wait as rows of their own (a tournament's
games, a test's pairs) and are turned into matches only while the background share has
room:

- all background matches together, queued or playing, are at most
  `background_cap()`: AGON_BACKGROUND_SHARE of AGON_MATCH_SLOTS (the matches all the
  workers play at once), at least one; every slot while no ranked match waits, so a
  platform with idle ladders plays a tournament at full speed;
- the room goes to the owner with the fewest background matches in flight, then to the
  work served least lately (its last match made longest ago, or never), so one user's
  255-bot Swiss does not hold back another user's version test, nor a user's first test
  their second.

Workers read the background queue before the ranked one (AGON_MATCH_WORKER_QUEUES), so
the share is also a guarantee: whatever the ladders queue, a slot that frees goes to a
waiting background game first, up to the cap, and the ranked matches keep the rest.

The apps that hold such work (tournaments, version tests) are above this one:
agon.match_kinds installs them as sources, each saying what waits (`waiting`) and turning
up to n of its games into matches (`dispatch`), as it installs the outcomes.
`background_dispatch` runs on every beat, when a background match ends, and when new
work is stored.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import ParamSpec, TypeVar

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count

from agon.matches.models import Match

P = ParamSpec("P")
R = TypeVar("R")

IN_FLIGHT = (Match.Status.QUEUED, Match.Status.RUNNING)
NEVER = datetime.min.replace(tzinfo=UTC)
ADVISORY_LOCK = 0x61676F6E  # "agon": PostgreSQL serializes dispatchers on it


@dataclass(frozen=True)
class Waiting:
    """Work with games waiting for room: `key` names it to its source's `dispatch`."""

    source: str
    key: int
    owner_id: int
    since: datetime
    """When the work was stored (made, or started)."""
    served: datetime | None = None
    """When its last match was made; None if it has had none."""


@dataclass(frozen=True)
class Source:
    waiting: Callable[[], Sequence[Waiting]]
    dispatch: Callable[[int, int], int]
    """(key, n): turn at most n of the work's waiting games into matches; how many it did."""


_sources: dict[str, Source] = {}


def background_sources_install(sources: Mapping[str, Source]) -> None:
    _sources.clear()
    _sources.update(sources)


def background_cap(*, ladders_waiting: bool) -> int:
    """How many background matches may be queued or playing at once."""
    slots = settings.AGON_MATCH_SLOTS
    if not ladders_waiting:
        return slots
    return max(1, math.floor(slots * settings.AGON_BACKGROUND_SHARE))


def background_in_flight() -> Counter[int]:
    """Background matches queued or playing, by owner."""
    rows = (
        Match.objects.filter(background=True, status__in=IN_FLIGHT)
        .values_list("created_by_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    return Counter({owner or 0: n for owner, n in rows})


def background_dispatch() -> int:
    """Give the free background slots to the waiting work, the owner with the fewest
    matches in flight first; how many matches it made. One dispatcher at a time on
    PostgreSQL (an advisory lock; SQLite's writers take turns anyway), so the cap holds
    exactly. It locks the rows of the work it dispatches after the advisory lock: call
    it holding none of them (after the transaction that stored the work, or on commit),
    or two dispatchers could wait for each other."""
    if not _sources:
        return 0
    made = 0
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [ADVISORY_LOCK])
        waiting = [work for source in _sources.values() for work in source.waiting()]
        if not waiting:
            return 0
        ladders_waiting = Match.objects.filter(
            kind=Match.Kind.RANKED, status=Match.Status.QUEUED
        ).exists()
        room = background_cap(ladders_waiting=ladders_waiting)
        flying = background_in_flight()
        room -= sum(flying.values())
        # Least lately served first (never before once), then the oldest.
        waiting.sort(key=lambda work: (work.served or NEVER, work.since, work.key))
        while room > 0 and waiting:
            work = min(waiting, key=lambda work: flying[work.owner_id])
            waiting.remove(work)
            if _sources[work.source].dispatch(work.key, 1) == 0:
                continue
            flying[work.owner_id] += 1
            room -= 1
            made += 1
            waiting.append(work)  # served now: last in its owner's line
    return made


def dispatching_after(function: Callable[P, R]) -> Callable[P, R]:
    """`function`, then a dispatch: for a service that stores waiting work in a
    transaction of its own (the dispatch must not run inside it, see
    `background_dispatch`)."""

    @functools.wraps(function)
    def dispatching(*args: P.args, **kwargs: P.kwargs) -> R:
        result = function(*args, **kwargs)
        background_dispatch()
        return result

    return dispatching


def background_dispatch_soon() -> None:
    """Dispatch once the current transaction commits (in this process)."""
    transaction.on_commit(background_dispatch)
