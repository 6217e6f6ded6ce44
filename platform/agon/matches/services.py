"""Match writes: create and enqueue, claim, run in the sandbox, finish exactly once.

A task claims its match with a conditional update (queued -> running) and a fresh
claim token; finishing checks the token inside one transaction, so a duplicated,
retried or late task can never store a result or move a rating twice.

While a run plays, a thread keeps the match's heartbeat fresh. A task for a `running`
match whose heartbeat is fresh waits (MatchHeld: the task retries itself later); once
the heartbeat is stale the run is gone (its pool process or worker was killed) and the
task takes the match over with a new token, so the lost run's result, should it ever
come, is dropped. The sweep does the same for matches nobody sends a task for.
"""

from __future__ import annotations

import functools
import logging
import secrets
import time
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone

from agon import counters
from agon.bots.models import BotVersion
from agon.celery import app as celery_app
from agon.ladders.models import Ladder
from agon.matches.fields import SeedField
from agon.matches.heartbeat import Heartbeat
from agon.matches.human_seat import HumanSeat
from agon.matches.human_slots import human_game_slot
from agon.matches.listed import listed_entry_of_finishing
from agon.matches.live import LiveRecorder, live_clear
from agon.matches.models import HumanTurn, Match, MatchSeat
from agon.matches.outcome_registry import outcome_conclude
from agon.matches.selectors import seats_with_versions, silent_matches
from agon.matches.timeline import store_finished_timeline
from agon.sandboxing import MatchRecord, Program, SandboxError, run_match
from engine.match import bounded_detail
from engine.players import Player

log = logging.getLogger(__name__)


# Sent by name: the task module imports this one to run what it is sent.
MATCH_TASK = "agon.matches.tasks.execute_queued_match"
MATCH_TASK_OLD_NAME = "agon.matches.tasks.run_match"
"""The match task's name in the messages of releases before it had its own: still run."""


def _enqueue(match_id: int) -> None:
    """Send the match's task, to its kind's queue (AGON_MATCH_QUEUE_BY_KIND: the matches
    someone waits for go before the ranked ones), or to the background queue for a game
    of the background share (agon.matches.background)."""
    matches = Match.objects.filter(id=match_id)
    matches.update(enqueued=timezone.now())
    kind, background = matches.values_list("kind", "background").get()
    queue = (
        settings.AGON_BACKGROUND_QUEUE if background else settings.AGON_MATCH_QUEUE_BY_KIND[kind]
    )
    if kind != Match.Kind.HUMAN:
        celery_app.send_task(MATCH_TASK, args=(match_id,), queue=queue)
        return
    # A human game's task outlives the settings' task time limits (its human has
    # AGON_HUMAN_GAME_SECONDS, then the stand-in finishes the game): its own, a margin past.
    # `human` tells the worker to take one of its human-game slots first (WorkerFull).
    game = int(settings.AGON_HUMAN_GAME_SECONDS)
    celery_app.send_task(
        MATCH_TASK,
        args=(match_id,),
        kwargs={"human": True},
        queue=queue,
        soft_time_limit=game + 120,
        time_limit=game + 180,
    )


@transaction.atomic
def match_create(
    *,
    kind: str,
    game: str,
    players: int,
    options: dict[str, object],
    seats: Sequence[BotVersion | str | User],
    ladder: Ladder | None = None,
    created_by: User | None = None,
    seed: int | None = None,
    background: bool = False,
    private: bool = False,
) -> Match:
    """A queued match; its task is sent once the transaction commits. A seat is a bot
    version or the name of a builtin bot. A `background` match counts in the background
    share of its creator (agon.matches.background); a `private` one is seen only by its
    event's audience (agon.matches.visibility). A user's seat (a human game's) is played
    in the browser (agon.matches.human_seat)."""
    match = Match.objects.create(
        kind=kind,
        background=background,
        private=private,
        ladder=ladder,
        game=game,
        players=players,
        options=options,
        seed=secrets.randbits(63) if seed is None else seed,
        created_by=created_by,
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(
            match=match,
            seat=i,
            version=s if isinstance(s, BotVersion) else None,
            builtin=s if isinstance(s, str) else "",
            human=s if isinstance(s, User) else None,
        )
        for i, s in enumerate(seats)
    )
    transaction.on_commit(lambda: _enqueue(match.id))
    return match


class MatchHeld(Exception):
    """A run holds the match and its heartbeat is fresh: it may still be playing. Look
    again in `retry_in` seconds, when a run that died would have gone stale."""

    def __init__(self, match_id: int, retry_in: float) -> None:
        super().__init__(f"match {match_id} is held by a live run (its heartbeat is fresh)")
        self.match_id = match_id
        self.retry_in = retry_in


def match_claim(*, match_id: int, now: datetime | None = None) -> str | None:
    """Take the match for this run: its claim token, or None when there is nothing to
    play (finished, failed, unknown).

    A queued match is claimed at once. A running match whose heartbeat is older than
    AGON_MATCH_STALE_SECONDS lost its run: it is taken over with a new token, or failed
    once AGON_MATCH_MAX_ATTEMPTS runs have claimed it. A running match whose heartbeat is
    fresh raises MatchHeld. `now` is for tests; the clock otherwise."""
    now = timezone.now() if now is None else now
    token = uuid.uuid4().hex
    claim = {
        "status": Match.Status.RUNNING,
        "claimed_by": token,
        "started": now,
        "heartbeat": now,
        "attempts": F("attempts") + 1,
        "seed": _seed_afresh_on_retry(),
    }
    if Match.objects.filter(id=match_id, status=Match.Status.QUEUED).update(**claim) == 1:
        return token
    with transaction.atomic():
        # Waits while the row is locked: by a finish, or a heartbeat (whose session the
        # database ends should its run freeze inside it: heartbeat.transaction_bounded).
        match = Match.objects.select_for_update().filter(id=match_id).first()
        if match is None or match.status != Match.Status.RUNNING:
            return None
        stale_at = match.last_sign_of_life() + timedelta(seconds=settings.AGON_MATCH_STALE_SECONDS)
        if now <= stale_at:
            # A little past the moment it would be stale, so a dead run is found stale.
            raise MatchHeld(match_id, (stale_at - now).total_seconds() + 1.0)
        silent = (now - match.last_sign_of_life()).total_seconds()
        if match.attempts >= settings.AGON_MATCH_MAX_ATTEMPTS:
            log.warning(
                "match %s: its run fell silent %.0f s ago; no attempt left", match_id, silent
            )
            _match_fail_lost(match)
            return None
        Match.objects.filter(id=match_id).update(**claim)
        log.warning(
            "match %s: its run fell silent %.0f s ago; this run takes it over", match_id, silent
        )
        transaction.on_commit(
            functools.partial(counters.record_match_taken_over, game=match.game, kind=match.kind)
        )
        return token


def _match_fail_lost(match: Match) -> None:
    """A match whose runs all died (the row locked by the caller's transaction)."""
    match.status = Match.Status.FAILED
    match.error = f"lost its worker {match.attempts} times"
    match.finished = timezone.now()
    match.claimed_by = ""
    match.save(update_fields=["status", "error", "finished", "claimed_by"])
    outcome_conclude(match)
    transaction.on_commit(
        functools.partial(counters.record_match_failed, game=match.game, kind=match.kind)
    )


def _seed_afresh_on_retry() -> Case:
    """The claim's new seed: a match played again (its run died, or its sandbox failed)
    is dealt afresh, a new seed for every claim after the first. Its bots may have seen
    part of the earlier deal, and may remember it across boxes (docs/threat-model.md);
    the replay records the seed the match was finally played on. Part of the claim's
    UPDATE (which sees the attempts before it counts this one): no statement of its own."""
    return Case(
        When(attempts__gte=1, then=Value(secrets.randbits(64), output_field=SeedField())),
        default=F("seed"),
    )


def programs_for(match: Match) -> list[Program]:
    programs = []
    for seat in match.seats.select_related("version__bot__owner", "human").order_by("seat"):
        if seat.human_id is not None:
            # Played in the browser: `human_seats` gives the seat its player.
            programs.append(Program(bot_id=seat.bot_id_label))
            continue
        if seat.version is None:
            programs.append(Program.builtin(seat.builtin))
            continue
        if seat.version.builtin:  # a ladder anchor (agon.ladders.anchors)
            programs.append(Program.builtin(seat.version.builtin))
            continue
        with seat.version.archive.open("rb") as archive:
            data = archive.read()
        programs.append(
            Program(bot_id=seat.version.label, package=data, filename=seat.version.filename)
        )
    return programs


def human_seats(match: Match, live: LiveRecorder) -> dict[int, Player]:
    """The players of a human game's browser seats; none for any other match. Before a
    human thinks, the moves so far are written out, so that the page shows the bots'."""
    if match.kind != Match.Kind.HUMAN:
        return {}
    # A run that takes the game over plays it from the start: the lost run's turns go.
    HumanTurn.objects.filter(match=match).delete()
    return {
        seat: HumanSeat(
            match_id=match.id,
            seat=seat,
            turn_seconds=settings.AGON_HUMAN_TURN_SECONDS,
            game_seconds=settings.AGON_HUMAN_GAME_SECONDS,
            before_waiting=live.flush,
        )
        for seat in match.seats.filter(human__isnull=False).values_list("seat", flat=True)
    }


def match_execute(*, match_id: int, human: bool = False) -> bool:
    """Claim, play and finish one match; False if another run has it or had it. A
    `human` game (its task says so) first takes one of the worker's human-game slots, or
    raises WorkerFull, the match left queued (agon.matches.human_slots)."""
    if not human:
        return _match_execute(match_id=match_id)
    with human_game_slot(
        workdir=settings.AGON_WORK_DIR,
        slots=settings.AGON_HUMAN_GAMES_PER_WORKER,
        match_id=match_id,
    ):
        return _match_execute(match_id=match_id)


def _match_execute(*, match_id: int) -> bool:
    started = time.monotonic()
    token = match_claim(match_id=match_id)  # or MatchHeld: another run may be playing it
    if token is None:
        log.info("match %s is over or unknown; nothing to do", match_id)
        return False
    match = Match.objects.get(id=match_id)
    sandbox = settings.AGON_SANDBOX
    if sandbox == "none" and not settings.AGON_ALLOW_UNSANDBOXED:
        match_fail(match_id=match_id, token=token, error="uploaded bots never run unsandboxed")
        return False
    settings.AGON_WORK_DIR.mkdir(parents=True, exist_ok=True)
    heartbeat = Heartbeat(match_id=match_id, token=token).start()
    live = LiveRecorder(match_id)  # the moves so far, for those watching
    try:
        try:
            record = run_match(
                game_id=match.game,
                seed=match.seed,
                options=match.options,
                programs=programs_for(match),
                sandbox=sandbox,
                workdir=settings.AGON_WORK_DIR,
                on_turn=live,
                seat_players=human_seats(match, live),
            )
        except SandboxError as error:
            # Not the bots' fault: try again later, up to the attempt limit.
            if match.attempts >= settings.AGON_MATCH_MAX_ATTEMPTS:
                match_fail(match_id=match_id, token=token, error=f"the sandbox failed: {error}")
            else:
                match_release(match_id=match_id, token=token)
            raise
        return _finish_or_fail(match_id=match_id, token=token, record=record, started=started)
    finally:
        heartbeat.stop()
        live_clear(match_id)


def _finish_or_fail(*, match_id: int, token: str, record: MatchRecord, started: float) -> bool:
    """Store the played match; if that fails, fail the match now and say why.

    Playing it again would fail the same way (what the bots did is replayed byte for
    byte), and a match left running would end, attempts later, as if its worker had
    died: a bot able to break the storing of its result could veto its losses. Only
    when the failure cannot even be recorded (the database is gone) does it propagate,
    and the stuck-match sweep takes the match back later."""
    try:
        replay_name = _finish(match_id=match_id, token=token, record=record, started=started)
    except Exception as error:
        log.exception("match %s: the platform could not store its result", match_id)
        first_line = bounded_detail((str(error).strip().splitlines() or [""])[0], limit=200)
        reason = f"the platform could not store its result ({type(error).__name__}: {first_line})"
        match_fail(match_id=match_id, token=token, error=reason)
        return False
    if replay_name is None:
        return False
    store_finished_timeline(match_id, replay_name, record.replay)
    return True


def match_finish(*, match_id: int, token: str, record: MatchRecord, started: float) -> bool:
    """Store the result, replay and logs, and apply the outcome of the match's kind
    (ratings, a verdict), in one transaction, exactly once; False when the match was
    taken from this run (its result is dropped)."""
    return _finish(match_id=match_id, token=token, record=record, started=started) is not None


@transaction.atomic
def _finish(*, match_id: int, token: str, record: MatchRecord, started: float) -> str | None:
    """`match_finish`: the name its replay was stored under, or None."""
    match = Match.objects.select_for_update().get(id=match_id)
    if match.status != Match.Status.RUNNING or match.claimed_by != token:
        log.warning("match %s was taken from this run; its result is dropped", match_id)
        return None
    replay = record.replay
    match.scores = replay.result["scores"]
    match.ranks = replay.result["ranks"]
    match.faults = replay.faults
    match.replay.save(f"match-{match.id}.json", ContentFile(replay.dumps().encode()), save=False)
    faulted = {fault["seat"]: fault["kind"] for fault in replay.faults}
    # Loaded once: the outcome (ratings, faults) reads these same seats, as ranked here.
    for seat in seats_with_versions(match):
        report = record.seats[seat.seat]
        seat.rank = match.ranks[seat.seat]
        seat.score = match.scores[seat.seat]
        seat.fault = str(faulted.get(seat.seat, ""))
        seat.log = report.log_bytes  # bytes as written: decoded only where shown
        seat.log_dropped_bytes = report.log_dropped_bytes
        seat.log_turn_offsets = report.turn_log_offsets
        seat.thinking_seconds = report.thinking_seconds
        seat.turn_milliseconds = report.turn_milliseconds
        # One UPDATE a seat: for a handful of rows, cheaper than bulk_update's CASE.
        seat.save(
            update_fields=[
                "rank",
                "score",
                "fault",
                "log",
                "log_dropped_bytes",
                "log_turn_offsets",
                "thinking_seconds",
                "turn_milliseconds",
            ]
        )
    match.status = Match.Status.FINISHED
    match.finished = timezone.now()
    match.match_seconds = record.match_seconds
    match.pipeline_seconds = time.monotonic() - started
    match.listed = listed_entry_of_finishing(match, seats_with_versions(match))
    match.save(
        update_fields=[
            "scores",
            "ranks",
            "faults",
            "replay",
            "status",
            "finished",
            "match_seconds",
            "pipeline_seconds",
            "listed",
        ]
    )
    outcome_conclude(match)
    transaction.on_commit(
        functools.partial(
            counters.record_match_finished,
            game=match.game,
            kind=match.kind,
            match_seconds=record.match_seconds,
            fault_kinds=[str(fault["kind"]) for fault in replay.faults],
        )
    )
    return str(match.replay.name)


@transaction.atomic
def match_fail(*, match_id: int, token: str, error: str) -> bool:
    match = Match.objects.select_for_update().get(id=match_id)
    if match.status != Match.Status.RUNNING or match.claimed_by != token:
        return False
    match.status = Match.Status.FAILED
    match.error = error[:4000]
    match.finished = timezone.now()
    match.save(update_fields=["status", "error", "finished"])
    outcome_conclude(match)
    transaction.on_commit(
        functools.partial(counters.record_match_failed, game=match.game, kind=match.kind)
    )
    return True


def match_release(*, match_id: int, token: str) -> bool:
    """Give a claimed match back to the queue (an infrastructure error; it will retry)."""
    return bool(
        Match.objects.filter(id=match_id, status=Match.Status.RUNNING, claimed_by=token).update(
            status=Match.Status.QUEUED, claimed_by=""
        )
    )


def requeue_stuck_matches(*, stuck_seconds: float | None = None) -> list[int]:
    """Matches `running` whose heartbeat is older than AGON_MATCH_STALE_SECONDS lost
    their run, and no task came to take them over (their whole worker died, with the
    message): queue them again, or fail them after too many attempts. Their old claim
    tokens stop counting. Queued matches whose message was lost (sent longer than
    AGON_MATCH_STUCK_SECONDS ago) are sent again. `stuck_seconds` replaces both limits
    (`agon up` gives back every match its last stop cut short with 0)."""
    now = timezone.now()
    stale = settings.AGON_MATCH_STALE_SECONDS if stuck_seconds is None else stuck_seconds
    stale_limit = now - timedelta(seconds=stale)
    requeued = []
    for match_id in silent_matches(stale_seconds=stale).values_list("id", flat=True):
        with transaction.atomic():
            # A row someone holds (a run frozen mid-heartbeat, a finish) waits for the
            # next sweep rather than stall this one.
            match = Match.objects.select_for_update(skip_locked=True).filter(id=match_id).first()
            if (
                match is None
                or match.status != Match.Status.RUNNING
                or match.last_sign_of_life() >= stale_limit
            ):
                continue  # locked, finished, or taken over by a task, meanwhile
            log.warning(
                "match %s: its run fell silent %.0f s ago; the sweep takes it back",
                match.id,
                (now - match.last_sign_of_life()).total_seconds(),
            )
            if match.attempts >= settings.AGON_MATCH_MAX_ATTEMPTS:
                _match_fail_lost(match)
                continue
            match.status = Match.Status.QUEUED
            match.claimed_by = ""
            match.save(update_fields=["status", "claimed_by"])
            transaction.on_commit(functools.partial(_enqueue, match.id))
            transaction.on_commit(
                functools.partial(
                    counters.record_match_taken_over, game=match.game, kind=match.kind
                )
            )
            requeued.append(match.id)
    stranded = settings.AGON_MATCH_STUCK_SECONDS if stuck_seconds is None else stuck_seconds
    requeued += resend_stranded_matches(limit=now - timedelta(seconds=stranded))
    return requeued


def resend_stranded_matches(*, limit: datetime) -> list[int]:
    """Matches still `queued` whose task was last sent before `limit`: the message was
    lost (a broker restart, a task that failed before it could claim), so send it again.
    A spare message is harmless: only one run can claim the match."""
    stranded = list(
        Match.objects.filter(status=Match.Status.QUEUED)
        .filter(Q(enqueued__lt=limit) | Q(enqueued__isnull=True, created__lt=limit))
        .values_list("id", flat=True)
    )
    for match_id in stranded:
        _enqueue(match_id)
    return stranded
