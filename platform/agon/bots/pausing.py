"""Broken versions are paused from matchmaking, as Halite did: a version that faults
(crashes, times out, answers illegally...) in more than AGON_FAULT_SHARE of its last
AGON_FAULT_RECENT_MATCHES matches, or in more than AGON_FAULT_MAX in all, stops being
seated in ranked matches until its owner uploads a new version or resumes it. Its
ratings are kept.

Only ranked matches judge a version, and only they count: matchmaking chose their
opponents and seeds. A challenge, a tournament or a version test is a game somebody
else may choose (the opponent, the seed, thousands of them), so counting them would let
a user steer a bot with a rare bug into a pause; validation matches are the validator's
business.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from agon.bots.models import BotVersion
from agon.bots.notices import version_paused_notify, version_resumed_notify
from agon.matches.models import Match, MatchSeat

MIN_FAULTS = 2
"""One fault alone never pauses a version, however few its matches."""


def broken_reason(
    recent_faults: Sequence[str], total_faults: int, *, window: int, share: float, most: int
) -> str | None:
    """Why a version with these faults (its last matches' fault codes, newest first, ""
    for none; and its count of faulted matches in all) is broken, or None if it is not."""
    recent = [fault for fault in recent_faults[:window] if fault]
    if total_faults > most:
        return f"it faulted in {total_faults} matches, more than {most}"
    if len(recent) >= MIN_FAULTS and len(recent) > share * min(len(recent_faults), window):
        kinds = ", ".join(sorted(set(recent)))
        return (
            f"it faulted in {len(recent)} of its last {min(len(recent_faults), window)} "
            f"matches ({kinds}), more than {share:.0%}"
        )
    return None


def _judged_seats(versions: Sequence[BotVersion], window: int) -> dict[int, tuple[list[str], int]]:
    """Per version (by id): the fault codes of its last `window` judged matches (newest
    first), and its count of faulted ones in all. One statement for them all, whose rows
    are at most `window` a version however many matches each has played."""
    if not versions:
        return {}
    judged = Q()
    for version in versions:
        counted = Q(version=version)
        if version.faults_counted_from is not None:
            counted &= Q(match__created__gte=version.faults_counted_from)
        judged |= counted
    rows = (
        MatchSeat.objects.filter(
            judged, match__status=Match.Status.FINISHED, match__kind=Match.Kind.RANKED
        )
        .annotate(
            newest=Window(RowNumber(), partition_by=F("version_id"), order_by=F("match_id").desc()),
            faults_in_all=Window(Count("pk", filter=~Q(fault="")), partition_by=F("version_id")),
        )
        .filter(newest__lte=max(1, window))
        .order_by("version_id", "-match_id")
        .values_list("version_id", "fault", "faults_in_all")
    )
    found: dict[int, tuple[list[str], int]] = {version.id: ([], 0) for version in versions}
    for version_id, fault, faulted in rows:
        faults, _ = found[version_id]
        found[version_id] = ([*faults, fault] if len(faults) < window else faults, faulted)
    return found


def version_judge_faults(*, version: BotVersion) -> bool:
    """Pause the version if its faults in ranked matches say it is broken; whether it is
    paused now. Called as each of its ranked matches is concluded, in that transaction."""
    return versions_judge_faults([version]) == [True]


def versions_judge_faults(versions: Sequence[BotVersion]) -> list[bool]:
    """`version_judge_faults` of each version (those of a match's seats), their records
    read in one statement."""
    window = settings.AGON_FAULT_RECENT_MATCHES
    records = _judged_seats([v for v in versions if not v.paused_reason], window)
    paused = []
    for version in versions:
        if version.paused_reason:
            paused.append(True)
            continue
        faults, faulted = records[version.id]
        reason = broken_reason(
            faults,
            faulted,
            window=window,
            share=settings.AGON_FAULT_SHARE,
            most=settings.AGON_FAULT_MAX,
        )
        if reason is not None:
            version.paused_reason = f"Paused from matchmaking: {reason}."
            version.save(update_fields=["paused_reason"])
            version_paused_notify(version)
        paused.append(reason is not None)
    return paused


@transaction.atomic
def version_resume(*, version: BotVersion) -> BotVersion:
    """Its owner asks for the version to play again: its past faults are forgiven (they
    are judged from now on); nothing else changes, its ratings least of all."""
    was_paused = bool(
        BotVersion.objects.select_for_update()
        .filter(pk=version.pk)
        .values_list("paused_reason", flat=True)
        .get()
    )
    version.paused_reason = ""
    version.faults_counted_from = timezone.now()
    version.save(update_fields=["paused_reason", "faults_counted_from"])
    if was_paused:
        version_resumed_notify(version)
    return version
