"""A bot leaving a tournament that runs: it forfeits what it has left to play.

Before a tournament starts, withdrawing removes the entry (agon.tournaments.services).
Once it runs, its formats pair the whole field (a Swiss round, a knockout bracket, a
round robin's tables are fixed by the entrants' numbers), so the bot cannot simply
vanish. We do what Challonge does with a player who leaves mid-event: each of its
remaining games is a forfeit. The games it has played keep their results; every game of
it not decided yet (waiting, queued, even one being played) is decided at once, and every
game the format pairs it in later is decided as it is stored. Its queued matches are not
played; one already running plays on and is ignored, as after a cancel. The tournament
goes on for the others and finishes as usual; the withdrawn bot stays in the standings
with the points it had and its forfeits counted as losses.

A forfeit ranks the withdrawn seats last and the others first together: nobody played, so
nobody is ahead of anybody but the bot that left (a fault is ranked the same way by the
referee). At two players that is a win for the one who stayed.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence

from django.utils import timezone

from agon.matches.models import Match
from agon.tournaments.models import Entry, Tournament, TournamentGame

log = logging.getLogger(__name__)

FORFEITED = "not played: a bot in it withdrew from its tournament"


def forfeit_ranks(bots: Sequence[int], withdrawn: Collection[int]) -> list[int]:
    """The ranks of a game of entrants `bots` (seat order) some of whom withdrew: the
    ones still in share the first place, the withdrawn ones the place after them."""
    staying = sum(bot not in withdrawn for bot in bots)
    return [1 if bot not in withdrawn else staying + 1 for bot in bots]


def withdrawn_entrants(tournament: Tournament) -> set[int]:
    """The numbers of the entrants that withdrew since the tournament started."""
    numbers = tournament.entries.filter(withdrawn__isnull=False, number__isnull=False)
    return {number for number in numbers.values_list("number", flat=True) if number is not None}


def forfeit_if_withdrawn(row: TournamentGame, withdrawn: Collection[int]) -> TournamentGame:
    """A game just paired (unsaved): decided at once as a forfeit if one of its bots
    withdrew. A bye stays a bye."""
    if row.ranks is None and any(bot in withdrawn for bot in row.bots):
        row.ranks = forfeit_ranks(row.bots, withdrawn)
        row.forfeited = True
    return row


def entry_forfeit(*, tournament: Tournament, entry: Entry) -> None:
    """Withdraw `entry` from the running `tournament` (the caller holds its row lock):
    its undecided games become forfeits now, and the games paired for it later will be
    too (`forfeit_if_withdrawn`). The beat moves the tournament on from there."""
    if entry.withdrawn is not None:
        return
    now = timezone.now()
    entry.withdrawn = now
    entry.save(update_fields=["withdrawn"])
    if entry.number is None:
        return  # dropped when the entry closed: it plays nothing
    withdrawn = withdrawn_entrants(tournament)
    undecided = TournamentGame.objects.select_for_update().filter(
        tournament=tournament, ranks__isnull=True
    )
    unplayed: list[int] = []
    for row in undecided:
        if entry.number not in row.bots:
            continue
        row.ranks = forfeit_ranks(row.bots, withdrawn)
        row.forfeited = True
        row.save(update_fields=["ranks", "forfeited"])
        if row.match_id is not None:
            unplayed.append(row.match_id)
    Match.objects.filter(id__in=unplayed, status=Match.Status.QUEUED).update(
        status=Match.Status.FAILED, error=FORFEITED, finished=now
    )
    log.info("tournament %s: entrant %s withdrew", tournament.id, entry.number)
