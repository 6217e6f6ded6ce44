"""A finished match as the API lists it, in JSON, written once: when it finishes.

A page of a bot's matches is a different page for each of thousands of bots, rarely found
in the list cache, and its seats, timestamps and 25 KB of JSON cost more than its
statement (bench/README.md, "Fifth round"). A finished match's entry in the lists does
not change: its seats' versions, ranks, scores and faults are written as it finishes.
Only its labels (`owner/name@vN`) would, by a rename, which writes the entries of the
renamed bot's finished matches again in its transaction. (Usernames do not change; a
deleted bot's matches go with it.) So the entry is written into the match's row
(`Match.listed`) as it finishes, and a page is its rows' entries joined as they are, read
in the page's one statement; only matches not finished (and those finished before
entries were kept: `listed_entries_fill`) are made as they are read.

An entry holds nothing any viewer of the match may not see, and is the same for every
viewer: who sees which matches is decided by the list's statement, as before.

A finish and a rename of one of its bots at the same moment: the finish reads its bots'
names holding a lock on their rows (PostgreSQL; SQLite runs one writer at a time),
so it reads the new name once the rename commits, or the rename waits for the finish to
commit and then writes its entry again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from datetime import tzinfo
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from agon.bots.models import Bot
from agon.listings import api_datetime, aware
from agon.matches.models import Match, MatchSeat
from agon.matches.selectors import ListedMatch, SeatShown, match_seats

BATCH = 500
"""Matches whose entries are written in one statement."""


def seat_json(seat: SeatShown) -> dict[str, Any]:
    """A seat as the API shows it in a match (plain values: nothing to convert)."""
    return {
        "seat": seat.seat,
        "bot": seat.bot,
        "version": seat.version,
        "bot_label": seat.bot_label,
        "rank": seat.rank,
        "score": seat.score,
        "fault": seat.fault,
    }


def listed_match_json(match: ListedMatch, zone: tzinfo) -> dict[str, Any]:
    """What MatchSerializer gives for a match, from its row of `MatchListing`."""
    return {
        "id": match.id,
        "kind": match.kind,
        "ladder": match.ladder,
        "game": match.game,
        "players": match.players,
        "status": match.status,
        "created": api_datetime(match.created, zone),
        "finished": api_datetime(match.finished, zone) if match.finished else None,
        "seats": [seat_json(seat) for seat in match.seats],
    }


def json_text(value: object) -> str:
    """`value` as DRF's JSON renderer writes it (compact; U+2028 and U+2029 escaped),
    before it is encoded in UTF-8."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def listed_texts(matches: list[ListedMatch]) -> list[str]:
    """Each match's JSON as the lists show it, in order, from rows of a `MatchListing`
    read without their seats: a finished match's entry as written, the others made (their
    seats in one statement)."""
    missing = [match for match in matches if not match.listed]
    made: dict[int, str] = {}
    if missing:
        zone = timezone.get_current_timezone()
        seats = match_seats([match.id for match in missing])
        for match in missing:
            with_seats = replace(match, seats=seats[match.id])
            made[match.id] = json_text(listed_match_json(with_seats, zone))
    return [match.listed or made[match.id] for match in matches]


def listed_entries_write(match_ids: Iterable[int]) -> int:
    """Write the entries of these matches, those that are finished, in batches; how many."""
    ids = sorted(set(match_ids))
    written = 0
    zone = timezone.get_current_timezone()
    for start in range(0, len(ids), BATCH):
        rows = list(
            Match.objects.filter(id__in=ids[start : start + BATCH], status=Match.Status.FINISHED)
            .order_by("id")
            .values_list(
                "id", "kind", "ladder_id", "game", "players", "status", "created", "finished"
            )
        )
        if not rows:
            continue
        seats = match_seats([row[0] for row in rows])
        entries = [
            Match(
                id=row[0],
                listed=json_text(
                    listed_match_json(
                        ListedMatch(
                            *row[:6],
                            created=aware(row[6]),
                            finished=aware(row[7]) if row[7] else None,
                            seats=seats[row[0]],
                        ),
                        zone,
                    )
                ),
            )
            for row in rows
        ]
        Match.objects.bulk_update(entries, ["listed"])
        written += len(entries)
    return written


def listed_entry_of_finishing(match: Match, seats: list[MatchSeat]) -> str:
    """The entry of a match finishing in this transaction, from its row and its seats as
    `match_finish` holds them (with their versions): one statement more, its bots' names
    and owners, read under a lock on their rows (PostgreSQL; see above)."""
    bot_ids = sorted({seat.version.bot_id for seat in seats if seat.version is not None})
    names: dict[int, tuple[str, str]] = {}
    if bot_ids:
        # FOR UPDATE, not FOR SHARE: the finish goes on to rate the match, whose
        # `select_for_update` locks these rows too (joined), and two finishes sharing a
        # bot that each held a share lock on it then waited for each other: "deadlock
        # detected" (the pipeline bench, at once). Taken in id order, once.
        lock = " FOR UPDATE OF b" if connection.vendor == "postgresql" else ""
        keys = ", ".join(["%s"] * len(bot_ids))
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT b.id, b.name, u.username FROM {Bot._meta.db_table} b"  # noqa: S608 - the models' tables
                f" JOIN {User._meta.db_table} u ON u.id = b.owner_id"
                f" WHERE b.id IN ({keys}) ORDER BY b.id{lock}",
                bot_ids,
            )
            names = {bot_id: (name, owner) for bot_id, name, owner in cursor.fetchall()}
    humans = (
        dict(
            User.objects.filter(
                id__in=[seat.human_id for seat in seats if seat.human_id]
            ).values_list("id", "username")
        )
        if any(seat.human_id for seat in seats)
        else {}
    )
    shown = []
    for seat in seats:
        version = seat.version
        if version is not None:
            name, owner = names[version.bot_id]
            label = f"{owner}/{name}@v{version.number}"
        elif seat.human_id:
            label = f"human:{humans[seat.human_id]}"
        else:
            label = f"builtin:{seat.builtin}"
        shown.append(
            SeatShown(
                seat.seat,
                version.bot_id if version is not None else None,
                version.number if version is not None else None,
                label,
                seat.rank,
                seat.score,
                seat.fault,
            )
        )
    listed = ListedMatch(
        match.id,
        match.kind,
        match.ladder_id,
        match.game,
        match.players,
        match.status,
        match.created,
        match.finished,
        shown,
    )
    return json_text(listed_match_json(listed, timezone.get_current_timezone()))


def listed_entries_rewrite(*, bot_id: int) -> int:
    """A bot is renamed (in this transaction): write its finished matches' entries again."""
    ids = (
        MatchSeat.objects.filter(version__bot_id=bot_id, match__status=Match.Status.FINISHED)
        .values_list("match_id", flat=True)
        .distinct()
    )
    return listed_entries_write(list(ids))


def listed_entries_fill() -> int:
    """Write the entries of the finished matches that have none (finished before entries
    were kept: they are made as they are read until then); how many."""
    ids = Match.objects.filter(status=Match.Status.FINISHED, listed="").values_list("id", flat=True)
    return listed_entries_write(list(ids))
