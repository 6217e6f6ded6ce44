"""What a decided tournament shows, kept: its detail and its pages of games never change
once it is over and none of its matches plays any more, so they are made once and kept in
the shared cache under a key of the tournament's (`settled_key`).

A running tournament is never kept: it shows what it is now. A tournament is settled once
it finished or was cancelled and no match of its games is queued or running (a cancelled
tournament's running matches finish after it, and their games then show their replays).
What it shows of its bots' names and owners can still change, by a rename or a deletion:
those forget the settled key of every tournament the bot is entered in
(`tournaments_forget`), once they are committed, so that the next request makes a new key
and the pages again. A key lost from the cache (it is bounded, and drops the least
recently used) is made anew the same way: a missing key never brings back old pages."""

from __future__ import annotations

import secrets

from django.core.cache import cache
from django.db import transaction

from agon.matches.models import Match
from agon.tournaments.models import Entry, Tournament

SETTLED_SECONDS = 24 * 3600
"""How long a settled tournament's key and pages are kept at most: a change no rename or
deletion forgets (an edit in the admin) shows at the latest this late."""

DECIDED = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def _name(tournament_id: int) -> str:
    return f"agon:tournament-settled:{tournament_id}"


def settled_key(tournament: Tournament) -> str | None:
    """The start of the cache keys of what `tournament` shows while it stays as it is now,
    or None while it may still change (it runs, or a match of it still plays)."""
    if tournament.status not in DECIDED:
        return None
    name = _name(tournament.id)
    token = cache.get(name)
    if token is None:
        playing = Match.objects.filter(
            tournament_game__tournament_id=tournament.id,
            status__in=(Match.Status.QUEUED, Match.Status.RUNNING),
        )
        if playing.exists():
            return None
        # `add`: of two requests making a key at once, both use the first one's.
        cache.add(name, secrets.token_hex(8), SETTLED_SECONDS)
        token = cache.get(name)
        if token is None:  # dropped at once by a full cache: serve it unkept
            return None
    return f"{name}:{token}"


def tournaments_forget(*, bot_id: int) -> None:
    """The bot's name or owner changes (a rename, a deletion): what the tournaments it is
    entered in show is made again, once the change is committed."""
    names = [
        _name(tournament_id)
        for tournament_id in Entry.objects.filter(bot_id=bot_id).values_list(
            "tournament_id", flat=True
        )
    ]
    if names:
        transaction.on_commit(lambda: cache.delete_many(names))
