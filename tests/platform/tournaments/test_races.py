"""Two beats (or a beat and a worker's nudge) moving one tournament on at once, on
PostgreSQL: each step locks the tournament's row, so the second finds the work done and
no game is queued twice."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection

from agon.matches.models import Match
from agon.tournaments.models import Tournament, TournamentGame
from agon.tournaments.scheduling import tournament_advance, tournaments_advance
from tests.platform.conftest import MakeBot
from tests.platform.support import finish_match
from tests.platform.tournaments.support import (
    after_entry,
    enter,
    games_in_play,
    lower_seat_wins,
    open_tournament,
)

pytestmark = pytest.mark.django_db(transaction=True)

RACERS = 4


def race(step: Callable[[], object]) -> list[BaseException]:
    """Run `step` in RACERS threads let go at once; the errors they raised."""
    barrier = threading.Barrier(RACERS)
    errors: list[BaseException] = []

    def run() -> None:
        try:
            barrier.wait()
            step()
        except BaseException as error:  # reported by the test
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


def test_racing_steps_queue_each_game_once(make_bot: MakeBot, alice: User) -> None:
    bots = [make_bot(alice, f"bot{i}") for i in range(6)]
    tournament = open_tournament(alice, rounds=2)
    enter(tournament, bots)
    when = after_entry(tournament)

    assert race(lambda: tournaments_advance(now=when)) == []
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    first = games_in_play(tournament)
    assert len(first) == 6  # three tables of two games
    assert Match.objects.filter(kind=Match.Kind.TOURNAMENT).count() == 6

    for game in first:
        assert game.match is not None
        finish_match(game.match, scores=lower_seat_wins(game.match))
    assert race(lambda: tournament_advance(tournament_id=tournament.id)) == []
    assert TournamentGame.objects.filter(tournament=tournament).count() == 12
    assert Match.objects.filter(kind=Match.Kind.TOURNAMENT).count() == 12
    assert len({game.round for game in games_in_play(tournament)}) == 1
