"""Asking for a match's analysis, and making it: plain functions over MatchAnalysis.

- Beat (`analyses_schedule`, every AGON_ANALYSIS_SECONDS) chooses the newest finished
  ranked and tournament matches not analysed yet, as many as the day's budget leaves
  (AGON_ANALYSIS_PER_DAY analyses asked for over any 24 hours, at most
  AGON_ANALYSIS_PER_RUN a run), and sends each to the `analysis` queue; it also sends
  again an analysis whose message was lost and takes back one whose worker died.
- The owner of a seat's bot asks for any other finished match of theirs
  (`analysis_request`): challenges, validations, version tests; counted in the same
  budget and in their own (AGON_ANALYSIS_PER_USER_PER_DAY).
- A worker makes it once (`analysis_run`): it claims the analysis with a conditional
  update, so that a task sent twice runs once, and stores every step's values. A page
  view only reads them.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from agon.analysis.models import MatchAnalysis
from agon.celery import app as celery_app
from agon.matches.models import Match
from engine.core import IllegalAction
from engine.replay import Replay, ReplayError
from engine.search.analysis import analyse_replay

log = logging.getLogger(__name__)

ANALYSED_KINDS = (Match.Kind.RANKED, Match.Kind.TOURNAMENT)
"""The kinds beat analyses by itself; any other is analysed when its owner asks."""
DAY = timedelta(days=1)
ANALYSIS_TASK = "agon.analysis.tasks.analysis_run"


class AnalysisRefused(Exception):
    """Why an analysis cannot be asked for: `reason` is `not-finished`, `not-owner`,
    `budget` (the site's day) or `own-budget` (the user's day)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def budget_left(*, now: Any = None) -> int:
    """How many analyses may still be asked for in the 24 hours to `now`."""
    now = now or timezone.now()
    spent = MatchAnalysis.objects.filter(requested__gt=now - DAY).count()
    return max(0, settings.AGON_ANALYSIS_PER_DAY - spent)


def _send(match_ids: list[int]) -> None:
    """The analyses to the `analysis` queue, by the task's name, once the rows are
    committed (a worker that is quick finds them)."""

    def send() -> None:
        for match_id in match_ids:
            celery_app.send_task(
                ANALYSIS_TASK, args=(match_id,), queue=settings.AGON_ANALYSIS_QUEUE
            )

    if match_ids:
        transaction.on_commit(send)


def analyses_schedule(*, limit: int) -> int:
    """Beat's: analyses made for the newest finished ranked and tournament matches
    without one, within the day's budget and `limit`; lost ones sent again. How many
    were sent."""
    now = timezone.now()
    room = min(limit, budget_left(now=now))
    chosen: list[int] = []
    if room > 0:
        chosen = list(
            Match.objects.filter(
                status=Match.Status.FINISHED, kind__in=ANALYSED_KINDS, analysis__isnull=True
            )
            .exclude(replay="")
            .order_by("-id")
            .values_list("id", flat=True)[:room]
        )
    with transaction.atomic():
        MatchAnalysis.objects.bulk_create(
            [MatchAnalysis(match_id=match_id, requested=now, sent=now) for match_id in chosen],
            ignore_conflicts=True,
        )
        lost = _lost_analyses(now)
        _send(chosen + lost)
    return len(chosen) + len(lost)


def _lost_analyses(now: Any) -> list[int]:
    """Queued analyses sent too long ago (a lost message) and running ones whose worker
    died (past the task's hard time limit), queued again; one that lost its worker
    AGON_ANALYSIS_MAX_ATTEMPTS times fails."""
    resend = now - timedelta(seconds=settings.AGON_ANALYSIS_RESEND_SECONDS)
    dead = now - timedelta(seconds=settings.AGON_ANALYSIS_TIME_LIMIT + 60)
    MatchAnalysis.objects.filter(
        status=MatchAnalysis.Status.RUNNING,
        started__lt=dead,
        attempts__gte=settings.AGON_ANALYSIS_MAX_ATTEMPTS,
    ).update(status=MatchAnalysis.Status.FAILED, error="its worker stopped every time")
    MatchAnalysis.objects.filter(status=MatchAnalysis.Status.RUNNING, started__lt=dead).update(
        status=MatchAnalysis.Status.QUEUED, sent=resend
    )
    lost = list(
        MatchAnalysis.objects.filter(status=MatchAnalysis.Status.QUEUED, sent__lte=resend)
        .order_by("match_id")
        .values_list("match_id", flat=True)[: settings.AGON_ANALYSIS_PER_RUN]
    )
    MatchAnalysis.objects.filter(match_id__in=lost).update(sent=now)
    return lost


def user_may_request(match: Match, user: Any) -> bool:
    """Whether `user` owns the bot of one of the match's seats (or is staff)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff) or match.seats.filter(version__bot__owner_id=user.id).exists()


@transaction.atomic
def analysis_request(*, match: Match, user: Any) -> MatchAnalysis:
    """The analysis of `match` asked for by `user`, an owner of one of its seats' bots:
    the one there is if any (a failed one is asked for again), else a new one, sent to
    the queue. AnalysisRefused says why not."""
    if match.status != Match.Status.FINISHED or not match.replay:
        raise AnalysisRefused("not-finished", "only a finished match can be analysed")
    if not user_may_request(match, user):
        raise AnalysisRefused(
            "not-owner", "only the owner of one of the match's bots may ask for its analysis"
        )
    found = MatchAnalysis.objects.select_for_update().filter(match=match).first()
    if found is not None and found.status != MatchAnalysis.Status.FAILED:
        return found
    now = timezone.now()
    if budget_left(now=now) <= 0:
        raise AnalysisRefused("budget", "the site's analyses for today are spent: try tomorrow")
    own = MatchAnalysis.objects.filter(requested_by=user, requested__gt=now - DAY).count()
    if own >= settings.AGON_ANALYSIS_PER_USER_PER_DAY:
        raise AnalysisRefused("own-budget", "your analyses for today are spent: try tomorrow")
    fresh = {
        "status": MatchAnalysis.Status.QUEUED,
        "requested": now,
        "requested_by": user,
        "sent": now,
        "error": "",
        "attempts": 0,
    }
    if found is None:
        try:
            with transaction.atomic():
                found = MatchAnalysis.objects.create(match=match, **fresh)
        except IntegrityError:  # beat made it meanwhile
            return MatchAnalysis.objects.get(match=match)
    else:
        for name, value in fresh.items():
            setattr(found, name, value)
        found.save()
    _send([match.id])
    return found


def _stored_replay(match: Match) -> Replay:
    with match.replay.open("rb") as stored:
        return Replay.from_json(json.loads(stored.read()))


def analysis_run(*, match_id: int) -> bool:
    """Make the analysis of a match, if it is queued and this run claims it; whether it
    did. A replay that does not play through makes it `failed`, with the reason."""
    claimed = MatchAnalysis.objects.filter(
        match_id=match_id, status=MatchAnalysis.Status.QUEUED
    ).update(
        status=MatchAnalysis.Status.RUNNING, started=timezone.now(), attempts=F("attempts") + 1
    )
    if claimed != 1:
        return False
    match = Match.objects.get(id=match_id)
    level = settings.AGON_ANALYSIS_LEVEL
    started = time.process_time()
    try:
        made = analyse_replay(_stored_replay(match), level)
    except (ReplayError, OSError, ValueError, KeyError, IllegalAction) as problem:
        log.warning("analysis of match %s failed: %s", match_id, problem)
        MatchAnalysis.objects.filter(match_id=match_id).update(
            status=MatchAnalysis.Status.FAILED,
            finished=timezone.now(),
            error=str(problem)[:300],
        )
        return True
    MatchAnalysis.objects.filter(match_id=match_id).update(
        status=MatchAnalysis.Status.DONE,
        finished=timezone.now(),
        level=level,
        values=[[round(value * 1000) for value in step] for step in made.values],
        movers=made.movers,
        cpu_seconds=time.process_time() - started,
        error="",
    )
    return True
