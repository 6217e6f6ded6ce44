"""Helpers of the tournament tests: a tournament whose entry is open now, bots entered
into it, and its games played by hand (`tests.platform.support.finish_match`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from agon.bots.models import Bot
from agon.matches.background import background_dispatch
from agon.matches.models import Match
from agon.tournaments.models import Tournament, TournamentGame
from agon.tournaments.scheduling import tournament_advance
from agon.tournaments.services import entry_create, tournament_create
from tests.platform.support import finish_match


def open_tournament(owner: User, **settings: object) -> Tournament:
    """A tournament of akropolis for two, entry open for an hour (unless told otherwise)."""
    given: dict[str, object] = {
        "name": "the cup",
        "game": "akropolis",
        "format": "swiss",
        "entry_closes": timezone.now() + timedelta(hours=1),
        "seed": 7,
        **settings,
    }
    return tournament_create(owner=owner, **given)  # type: ignore[arg-type]


def enter(tournament: Tournament, bots: Sequence[Bot], user: User | None = None) -> None:
    for bot in bots:
        entry_create(user=user or bot.owner, tournament_id=tournament.id, bot_id=bot.id)


def after_entry(tournament: Tournament) -> datetime:
    return tournament.entry_closes + timedelta(seconds=1)


def games_in_play(tournament: Tournament) -> list[TournamentGame]:
    """The undecided games, each with its match: the background share gives a private
    tournament's games theirs once a transaction commits, which a test's never does."""
    background_dispatch()
    return list(
        TournamentGame.objects.filter(tournament=tournament, ranks__isnull=True)
        .select_related("match")
        .order_by("id")
    )


Decide = Callable[[Match], Sequence[int]]


def lower_seat_wins(match: Match) -> list[int]:
    """Scores for a made-up game: the seat holding the lowest version id wins."""
    ids = list(match.seats.order_by("seat").values_list("version_id", flat=True))
    return [100 - sorted(ids).index(version_id) for version_id in ids]


def play_out(tournament: Tournament, decide: Decide = lower_seat_wins, rounds: int = 100) -> int:
    """Finish every game in play with made-up scores and move the tournament on, until
    it is over; the matches played."""
    played = 0
    for _ in range(rounds):
        # Those waiting for room in the background share are played once they have it.
        pending = [game for game in games_in_play(tournament) if game.match is not None]
        if not pending:
            tournament_advance(tournament_id=tournament.id)
            tournament.refresh_from_db()
            if tournament.status != Tournament.Status.RUNNING:
                return played
            continue
        for game in pending:
            assert game.match is not None  # for mypy: `pending` holds only those
            finish_match(game.match, scores=decide(game.match))
            played += 1
        tournament_advance(tournament_id=tournament.id)
    raise AssertionError(f"tournament {tournament.id} did not finish in {rounds} steps")
