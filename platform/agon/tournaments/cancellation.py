"""Cancelling a tournament that has not finished: by its owner (a private one) or staff.

Its queued games are not played (their matches fail at once, so no worker claims them);
a match already running finishes, and `tournament_game_conclude` ignores it. The
standings are frozen as they stood, and the note says who cancelled it and when.
Cancelling a cancelled tournament again changes nothing.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404
from django.utils import timezone

from agon.matches.models import Match
from agon.tournaments.events import event_for, minimum_entrants, results_of
from agon.tournaments.models import Tournament, TournamentGame
from agon.tournaments.notices import tournament_phase_notify
from agon.tournaments.scheduling import entrant_labels, standings_rows
from agon.tournaments.services import tournament_visible

NOT_PLAYED = "not played: its tournament was cancelled"


def may_cancel(tournament: Tournament, user: User | None) -> bool:
    """Staff cancel any tournament; a user their own private one."""
    if user is None:
        return False
    return user.is_staff or (not tournament.public and user.id == tournament.owner_id)


@transaction.atomic
def tournament_cancel(*, user: User, tournament_id: int) -> Tournament:
    """Cancel the tournament unless it finished (a 400); a 404 for one the user does not
    see, a 403 for one they see but may not cancel."""
    tournament = (
        Tournament.objects.select_for_update().select_related("owner").filter(id=tournament_id)
    ).first()
    if tournament is None or not tournament_visible(tournament, user):
        raise Http404(f"there is no tournament {tournament_id}")
    if not may_cancel(tournament, user):
        raise PermissionDenied("only staff and the owner of a private tournament cancel it")
    if tournament.status == Tournament.Status.CANCELLED:
        return tournament
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError("the tournament has finished: it cannot be cancelled")
    now = timezone.now()
    if tournament.status == Tournament.Status.RUNNING:
        tournament.standings = _standings_now(tournament)
        games = TournamentGame.objects.filter(tournament=tournament, ranks__isnull=True)
        Match.objects.filter(id__in=games.values("match_id"), status=Match.Status.QUEUED).update(
            status=Match.Status.FAILED, error=NOT_PLAYED, finished=now
        )
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished = now
    cancelled = f"cancelled by {user.username} on {now:%Y-%m-%d %H:%M} UTC"
    tournament.note = f"{cancelled}; {tournament.note}" if tournament.note else cancelled
    tournament.save(update_fields=["status", "finished", "standings", "note"])
    tournament_phase_notify(tournament)
    return tournament


def _standings_now(tournament: Tournament) -> list[dict[str, object]]:
    entrants = list(
        tournament.entries.filter(number__isnull=False)
        .select_related("version__bot__owner")
        .order_by("number")
    )
    if len(entrants) < minimum_entrants(tournament):
        return []
    rows = TournamentGame.objects.filter(tournament=tournament, ranks__isnull=False).only(
        "round", "tie", "index", "bots", "seed", "ranks"
    )
    standings = event_for(tournament, len(entrants)).standings(results_of(rows))
    return standings_rows(standings, entrant_labels(entrants))
