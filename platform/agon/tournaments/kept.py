"""What a tournament shows, kept: its detail and its pages of games are made once per state
of the tournament and kept in the shared cache under a key of that state (`shown_key`), so
that the readers of a tournament of 256 bots do not each read and write its 256 entries,
standings and games again.

The key changes whenever what the tournament shows would:

- while it runs (or takes entries), with `live_version`: its status, its entries, and
  each game queued, given a match, started, decided or replayed. Kept LIVE_CACHE_SECONDS
  at most, it is never behind the database;
- once it is decided (finished or cancelled) and no match of its games plays any more (a
  cancelled tournament's running matches finish after it, and their games then show their
  replays), never again: kept SETTLED_SECONDS;
- and what it shows of its bots' names and owners changes by a rename or a deletion: those
  forget the names token of every tournament the bot is entered in
  (`tournaments_forget`), once they are committed. A token lost from the cache (it is
  bounded, and drops the least recently used) is made anew: a missing token never brings
  back old pages.
"""

from __future__ import annotations

import secrets

from django.core.cache import cache
from django.db import transaction

from agon.matches.models import Match
from agon.tournaments.models import Entry, Tournament
from agon.tournaments.selectors import LIVE_CACHE_SECONDS, live_version

SETTLED_SECONDS = 24 * 3600
"""How long a decided tournament's pages are kept at most: a change no rename or deletion
forgets (an edit in the admin) shows at the latest this late."""

DECIDED = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def _names(tournament_id: int) -> str:
    return f"agon:tournament-names:{tournament_id}"


def _settled(tournament_id: int) -> str:
    return f"agon:tournament-settled:{tournament_id}"


def shown_key(tournament: Tournament) -> tuple[str, int] | None:
    """The start of the cache keys of what `tournament` shows as it is now, and how long
    it may be kept; None when the cache lost the key as it was made (serve it unkept)."""
    names, settled = _names(tournament.id), _settled(tournament.id)
    kept = cache.get_many([names, settled])  # one round trip
    token = kept.get(names)
    if token is None:
        # `add`: of two requests making a token at once, both use the first one's.
        cache.add(names, secrets.token_hex(8), SETTLED_SECONDS)
        token = cache.get(names)
        if token is None:
            return None
    start = f"{names}:{token}"
    if tournament.status in DECIDED:
        if kept.get(settled) == token:
            return f"{start}:settled", SETTLED_SECONDS
        playing = Match.objects.filter(
            tournament_game__tournament_id=tournament.id,
            status__in=(Match.Status.QUEUED, Match.Status.RUNNING),
        )
        if not playing.exists():
            cache.set(settled, token, SETTLED_SECONDS)
            return f"{start}:settled", SETTLED_SECONDS
    return f"{start}:{live_version(tournament)}", LIVE_CACHE_SECONDS


def tournaments_forget(*, bot_id: int) -> None:
    """The bot's name or owner changes (a rename, a deletion): what the tournaments it is
    entered in show is made again, once the change is committed."""
    names = [
        _names(tournament_id)
        for tournament_id in Entry.objects.filter(bot_id=bot_id).values_list(
            "tournament_id", flat=True
        )
    ]
    if names:
        transaction.on_commit(lambda: cache.delete_many(names))
