"""Tournament reads: the list a user may see, and one tournament as its pages and the API
show it (entrants, rounds with each game's match, standings live or final, progress)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from agon.tournaments.events import event_for, results_of
from agon.tournaments.formats.round_robin import RoundRobin
from agon.tournaments.models import Entry, Tournament, TournamentGame
from agon.tournaments.scheduling import standings_rows
from agon.tournaments.services import tournament_visible


def tournament_list(*, user: User | None, status: str | None = None) -> QuerySet[Tournament]:
    """The tournaments `user` may see, newest first: the public ones and their own."""
    visible = Q(public=True)
    if user is not None:
        visible |= Q(owner=user)
    tournaments = Tournament.objects.filter(visible).select_related("owner").order_by("-id")
    if status is not None:
        tournaments = tournaments.filter(status=status)
    return tournaments


def tournament_get(*, tournament_id: int, user: User | None) -> Tournament | None:
    """The tournament if `user` may see it (anyone a public one, its owner a private one)."""
    tournament = Tournament.objects.select_related("owner").filter(id=tournament_id).first()
    if tournament is None or not tournament_visible(tournament, user):
        return None
    return tournament


GAME_STATUSES = ("bye", "void", "queued", "running", "finished", "failed")
"""A game's status: a bye, void (its matches kept failing: a tie), or its match's."""


@dataclass(frozen=True)
class GameShown:
    row: TournamentGame
    entrants: list[Entry]

    @property
    def is_bye(self) -> bool:
        return len(self.row.bots) == 1

    @property
    def status(self) -> str:
        """bye, void, or its match's status (queued, running, finished, failed)."""
        if self.is_bye:
            return "bye"
        if self.row.void:
            return "void"
        return self.row.match.status if self.row.match is not None else "queued"


@dataclass(frozen=True)
class Progress:
    games: int
    """Games queued so far (byes left out): the format pairs a round once the one before
    it is over, so this grows as the tournament goes."""
    decided: int
    round: int
    """The latest round with a game queued (0 before the first)."""
    rounds: int | None
    """The rounds there will be, when the format fixes them (a Swiss, a round robin)."""


@dataclass(frozen=True)
class TournamentShown:
    tournament: Tournament
    entrants: list[Entry]
    """Entered bots: in seed order once the entry closed (dropped ones last)."""
    rounds: dict[int, list[GameShown]] = field(default_factory=dict)
    standings: list[dict[str, object]] = field(default_factory=list)
    progress: Progress = Progress(0, 0, 0, None)


def tournament_shown(tournament: Tournament) -> TournamentShown:
    """Everything a tournament's page shows, in a fixed number of queries."""
    entries = list(
        tournament.entries.select_related("bot__owner", "version__bot__owner").order_by(
            "number", "id"
        )
    )
    entrants = [entry for entry in entries if entry.number is not None]
    rows = list(tournament.games.select_related("match").order_by("round", "tie", "index"))
    rounds: dict[int, list[GameShown]] = defaultdict(list)
    for row in rows:
        rounds[row.round].append(GameShown(row, entrants))
    standings = tournament.standings
    if tournament.status == Tournament.Status.RUNNING and entrants:
        live = event_for(tournament, len(entrants)).standings(results_of(rows))
        standings = standings_rows(live, entrants)
    played = [row for row in rows if len(row.bots) > 1]
    progress = Progress(
        games=len(played),
        decided=sum(row.ranks is not None for row in played),
        round=max((row.round for row in rows), default=0),
        rounds=_rounds_known(tournament, len(entrants)),
    )
    shown_entries = entrants + [entry for entry in entries if entry.number is None]
    return TournamentShown(tournament, shown_entries, dict(rounds), standings, progress)


def _rounds_known(tournament: Tournament, entrants: int) -> int | None:
    if tournament.format == Tournament.Format.SWISS:
        return tournament.rounds
    if tournament.format == Tournament.Format.ROUND_ROBIN and entrants >= tournament.players:
        cycle = RoundRobin(entrants, tournament.seed, tournament.players).tables()
        return len(cycle) * tournament.meetings
    return None
