"""A competition's phases, moved on by beat (`competitions_advance`, every
AGON_COMPETITION_SECONDS): upcoming -> open -> frozen -> final -> finished (or cancelled).

Each change is one transaction that locks the competition's row and checks its phase and
date again under the lock: a beat delivered twice, two beats at once or a worker killed
in the middle (its transaction rolled back, the next beat does it all) change each
phase once. The notices of a change are written in its transaction (agon.notifications
sends them after the commit, once per user and change).

- open: its ladders start playing (matchmaking takes active ladders).
- frozen: its ladders are pinned (`Ladder.pinned`), each entrant's version is locked
  (`CompetitionEntry.version`: the version its ratings name, which the ladders play on
  with; an entrant with no active version then, or retired, plays no more).
- final: the ladder of the final's player count is read in its leaderboard's order, the
  top `final_size` entrants with a locked version become the entrants of a public
  tournament of the final's format, numbered by that order (the formats seed by
  number), each playing its locked version; the ladders stop. The tournament is then
  played as any other (agon.tournaments.scheduling: its pairs, seats and replays).
- finished: once the final tournament has finished, its standings and games are copied
  into the archive (agon.competitions.archive).
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from agon.bots.models import BotVersion
from agon.competitions.archive import archive_final
from agon.competitions.models import Competition, CompetitionEntry
from agon.competitions.notices import competition_phase_notify, competition_result_notify
from agon.ladders.models import LEADERBOARD_ORDER, Ladder, Rating
from agon.tournaments.events import event_for
from agon.tournaments.models import Entry, Tournament
from agon.tournaments.scheduling import tournament_advance
from competition.formats.registry import get_format

log = logging.getLogger(__name__)

Phase = Competition.Phase
UNDER_WAY = (Phase.UPCOMING, Phase.OPEN, Phase.FROZEN, Phase.FINAL)


def competitions_advance(*, now: datetime | None = None) -> list[tuple[int, str]]:
    """Beat's step: every competition whose next phase is due moves on (as far as it
    is due); the (id, phase) of each change made."""
    now = timezone.now() if now is None else now
    changes = []
    for competition_id in Competition.objects.filter(phase__in=UNDER_WAY).values_list(
        "id", flat=True
    ):
        while (phase := competition_step(competition_id=competition_id, now=now)) is not None:
            changes.append((competition_id, phase))
    return changes


def competition_step(*, competition_id: int, now: datetime | None = None) -> str | None:
    """Move the competition on by one phase if that is due: the new phase, or None."""
    now = timezone.now() if now is None else now
    phase = _step(competition_id, now)
    if phase is not None:
        log.info("competition %s: %s", competition_id, phase)  # committed: logged once
    if phase == Phase.FINAL:
        final_id = Competition.objects.values_list("final_id", flat=True).get(id=competition_id)
        if final_id is not None:
            tournament_advance(tournament_id=final_id)  # its first round, before beat's next
    return phase


@transaction.atomic
def _step(competition_id: int, now: datetime) -> str | None:
    competition = Competition.objects.select_for_update().filter(id=competition_id).first()
    if competition is None:
        return None
    if competition.phase == Phase.UPCOMING and competition.opens <= now:
        _open(competition)
    elif competition.phase == Phase.OPEN and competition.freezes <= now:
        _freeze(competition)
    elif competition.phase == Phase.FROZEN and competition.final_starts <= now:
        _start_final(competition, now)
    elif competition.phase == Phase.FINAL and _final_over(competition):
        _finish(competition, now)
    else:
        return None
    competition.phase_changed = now
    competition.save()
    if competition.phase == Phase.FINISHED:
        competition_result_notify(competition)
    else:
        competition_phase_notify(competition)
    return str(competition.phase)


def _open(competition: Competition) -> None:
    competition.ladders.update(active=True)
    competition.phase = Phase.OPEN


def _freeze(competition: Competition) -> None:
    # The ladders' rows first, as a version entering ratings locks them (ratings_enter).
    ladder_ids = list(
        Ladder.objects.select_for_update()
        .filter(competitions=competition)
        .values_list("id", flat=True)
    )
    Ladder.objects.filter(id__in=ladder_ids).update(pinned=True)
    entries = list(competition.entries.select_related("bot").order_by("id"))
    active = {
        version.bot_id: version
        for version in BotVersion.objects.filter(
            bot_id__in=[entry.bot_id for entry in entries],
            bot__retired__isnull=True,
            status=BotVersion.Status.ACTIVE,
        )
    }
    for entry in entries:
        entry.version = active.get(entry.bot_id)
        entry.save(update_fields=["version"])
        ratings = Rating.objects.select_for_update().filter(
            ladder_id__in=ladder_ids, bot_id=entry.bot_id
        )
        if entry.version is None:
            ratings.update(active=False)
        else:
            ratings.exclude(version=entry.version).update(version=entry.version, version_games=0)
    locked = sum(entry.version is not None for entry in entries)
    competition.note = f"{locked} of {len(entries)} entrants had an active version at the freeze"
    competition.phase = Phase.FROZEN


def _start_final(competition: Competition, now: datetime) -> None:
    ladder = competition.ladders.get(players=competition.final_players)
    competition.ladders.update(active=False)
    entries = {
        entry.bot_id: entry
        for entry in competition.entries.select_related("bot", "version").order_by("id")
    }
    order = [
        (rating.bot_id, rating.shown)
        for rating in Rating.objects.filter(ladder=ladder, bot_id__in=list(entries)).order_by(
            *LEADERBOARD_ORDER
        )
    ]
    for place, (bot_id, shown) in enumerate(order, start=1):
        entry = entries[bot_id]
        entry.ladder_place = place
        entry.ladder_rating = str(shown)[:32]
    ranked = [bot_id for bot_id, _ in order]
    unrated = [bot_id for bot_id in entries if bot_id not in ranked]
    playing = [entries[bot_id] for bot_id in (*ranked, *unrated) if entries[bot_id].version]
    finalists = playing[: competition.final_size]
    for entry in finalists:
        entry.finalist = True
    CompetitionEntry.objects.bulk_update(
        list(entries.values()), ["ladder_place", "ladder_rating", "finalist"]
    )
    minimum = max(2, competition.final_players)
    if len(finalists) < minimum:
        competition.phase = Phase.CANCELLED
        competition.finished = now
        competition.note = (
            f"cancelled: {len(finalists)} entrants with a locked version at the final, "
            f"fewer than the {minimum} it needs"
        )
        return
    competition.final = _final_tournament(competition, finalists, now)
    competition.phase = Phase.FINAL


def _final_tournament(
    competition: Competition, finalists: list[CompetitionEntry], now: datetime
) -> Tournament:
    tournament = Tournament(
        name=f"{competition.name}: final"[:100],
        game=competition.game,
        format=competition.final_format,
        players=competition.final_players,
        rounds=competition.final_rounds,
        meetings=competition.final_meetings,
        options=dict(competition.options),
        seed=competition.seed % 2**63,
        public=True,
        owner=competition.created_by,
        max_entrants=len(finalists),
        entry_opens=now,
        entry_closes=now,
        status=Tournament.Status.RUNNING,
        started=now,
    )
    if tournament.rounds is None and get_format(tournament.format).TAKES_ROUNDS:
        tournament.rounds = event_for(tournament, len(finalists)).round_count()
    tournament.save()
    Entry.objects.bulk_create(
        Entry(
            tournament=tournament,
            bot=entry.bot,
            entered_by=entry.entered_by,
            version=entry.version,
            number=number,
        )
        for number, entry in enumerate(finalists)
    )
    return tournament


def _final_over(competition: Competition) -> bool:
    if competition.final is None:
        return False
    status = competition.final.status
    return status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def _finish(competition: Competition, now: datetime) -> None:
    final = competition.final
    assert final is not None  # noqa: S101 - _final_over checked it
    competition.finished = now
    if final.status == Tournament.Status.CANCELLED:
        competition.phase = Phase.CANCELLED
        competition.note = f"cancelled with its final: {final.note}"
        return
    archive_final(competition, final)
    competition.phase = Phase.FINISHED
