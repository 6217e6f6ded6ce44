"""A page of matches as the API lists it, in JSON bytes, each finished match's entry made
once and kept.

A page of a bot's matches is a different page for each of thousands of bots, rarely found
in the list cache (`agon.api.caching`), and its seats, timestamps and 25 KB of JSON cost
more than its statement (bench/README.md, "Fifth round"). A finished match's entry in
the lists does not change: its seats' versions, ranks, scores and faults are written when
it finishes. Only its labels do (`owner/name@vN`), when a bot is renamed (or deleted);
what a viewer may see is decided by the list's statement, before any entry is read, and
an entry holds nothing any viewer of the match may not see (the same for everybody).

So each finished match's entry is kept in the shared cache as its JSON bytes, under its id
and finish time, tagged with a names token; a page reads its matches' rows in one
statement, its kept entries and the token in one round trip, makes the rest (queued,
running or failed matches, and entries not kept) as before, and joins the bytes. A rename
or a deletion forgets the token once committed (`agon.matches.listed_names`): every entry
kept before is then made again as it is read. A request that read the old token and the
old names, and keeps its entries after the rename, tags them with the old token: they
are never used. A token lost from the cache (it is bounded) is made anew.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import replace
from datetime import tzinfo
from typing import Any

from django.core.cache import cache
from django.utils import timezone

from agon.api.common import api_datetime
from agon.matches.listed_names import NAMES_KEY
from agon.matches.models import Match
from agon.matches.selectors import ListedMatch, SeatShown, match_seats

KEY = "agon:listed-match:"
KEPT_SECONDS = 7 * 24 * 3600
"""How long an entry (and the names token) is kept at most."""


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


def json_bytes(value: object) -> bytes:
    """`value` as DRF's JSON renderer writes it: compact, UTF-8, U+2028 and U+2029
    escaped."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").encode()


def _key(match: ListedMatch) -> str | None:
    """A finished match's key (its finish time too: a key never names another entry)."""
    if match.status != Match.Status.FINISHED or match.finished is None:
        return None
    return f"{KEY}{match.id}:{match.finished.timestamp()}"


def listed_match_parts(matches: list[ListedMatch]) -> list[bytes]:
    """Each match's JSON as the lists show it, in order, from rows of a `MatchListing`
    read without their seats: finished matches' from the cache where kept, the others
    made (their seats in one statement) and, finished, kept."""
    keys = {match.id: key for match in matches if (key := _key(match)) is not None}
    parts: dict[int, bytes] = {}
    names: str | None = None
    if keys:
        kept = cache.get_many([NAMES_KEY, *keys.values()])  # one round trip
        names = kept.get(NAMES_KEY)
        if names is None:
            # `add`: of two requests making a token at once, both use the first one's.
            cache.add(NAMES_KEY, secrets.token_hex(8), KEPT_SECONDS)
            names = cache.get(NAMES_KEY)
        for match_id, key in keys.items():
            entry = kept.get(key)
            if names is not None and isinstance(entry, tuple) and entry[0] == names:
                parts[match_id] = entry[1]
    missing = [match for match in matches if match.id not in parts]
    if missing:
        zone = timezone.get_current_timezone()
        seats = match_seats([match.id for match in missing])
        fresh: dict[str, tuple[str, bytes]] = {}
        for match in missing:
            part = json_bytes(listed_match_json(replace(match, seats=seats[match.id]), zone))
            parts[match.id] = part
            if names is not None and match.id in keys:
                fresh[keys[match.id]] = (names, part)
        if fresh:
            cache.set_many(fresh, KEPT_SECONDS)
    return [parts[match.id] for match in matches]
