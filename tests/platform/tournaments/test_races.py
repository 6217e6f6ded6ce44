"""Two beats (or a beat and a worker's nudge) moving one tournament on at once, on
PostgreSQL: each step locks the tournament's row, so the second finds the work done and
no game is queued twice. So does a worker recording a game's end, so that a cancel
cannot slip in between its check and its replay."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, transaction

from agon.matches.models import Match
from agon.matches.services import match_claim, match_fail
from agon.tournaments.cancellation import tournament_cancel
from agon.tournaments.models import Tournament, TournamentGame
from agon.tournaments.scheduling import (
    tournament_advance,
    tournament_close_entry,
    tournaments_advance,
)
from competition.formats.swiss import Swiss
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


def test_a_match_failing_while_its_tournament_is_cancelled_queues_no_replay(
    make_bot: MakeBot, alice: User
) -> None:
    """The cancel holds the tournament's row while the worker records the failure: the
    worker waits for it, then finds the tournament cancelled and queues nothing."""
    tournament = open_tournament(alice, format="gauntlet")
    enter(tournament, [make_bot(alice, "one"), make_bot(alice, "two")])
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    failing = games_in_play(tournament)[0].match
    assert failing is not None
    token = match_claim(match_id=failing.id)
    assert token is not None
    cancelled, commit = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def cancel() -> None:
        try:
            with transaction.atomic():
                tournament_cancel(user=alice, tournament_id=tournament.id)
                cancelled.set()
                commit.wait(timeout=30)
        except BaseException as error:  # reported by the test
            errors.append(error)
        finally:
            connection.close()

    def fail() -> None:
        try:
            match_fail(match_id=failing.id, token=token, error="the sandbox failed: made up")
        except BaseException as error:  # reported by the test
            errors.append(error)
        finally:
            connection.close()

    canceller = threading.Thread(target=cancel)
    canceller.start()
    assert cancelled.wait(timeout=30)
    worker = threading.Thread(target=fail)
    worker.start()
    deadline = time.monotonic() + 30
    while worker.is_alive() and not waiting_on_a_lock() and time.monotonic() < deadline:
        time.sleep(0.01)
    commit.set()
    for thread in (canceller, worker):
        thread.join(timeout=60)

    assert errors == []
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert TournamentGame.objects.filter(tournament=tournament, replays__gt=0).count() == 0
    assert not Match.objects.filter(
        kind=Match.Kind.TOURNAMENT, status__in=[Match.Status.QUEUED, Match.Status.RUNNING]
    ).exists()


def waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        (waiting,) = cursor.fetchone()
    return bool(waiting)


def test_the_next_round_is_paired_while_the_tournaments_row_stays_free(
    make_bot: MakeBot, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pairing a round of a large Swiss takes a while; meanwhile workers recording
    results (and cancels) must not wait for it: the pairing holds no lock."""
    tournament = open_tournament(alice, rounds=2)
    enter(tournament, [make_bot(alice, f"bot{i}") for i in range(4)])
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    for game in games_in_play(tournament):
        assert game.match is not None
        finish_match(game.match, scores=lower_seat_wins(game.match))
    locked_meanwhile: list[bool] = []
    pair = Swiss.next_games

    def pair_and_try_the_lock(event: Swiss, results: object) -> object:
        def try_lock() -> None:
            try:
                with transaction.atomic():
                    rows = Tournament.objects.select_for_update(nowait=True)
                    locked_meanwhile.append(rows.filter(id=tournament.id).exists())
            except DatabaseError:
                locked_meanwhile.append(False)
            finally:
                connection.close()

        other = threading.Thread(target=try_lock)
        other.start()
        other.join(timeout=30)
        return pair(event, results)  # type: ignore[arg-type]

    monkeypatch.setattr(Swiss, "next_games", pair_and_try_the_lock)
    assert tournament_advance(tournament_id=tournament.id)
    assert locked_meanwhile == [True], "another connection could not lock the row"
    assert {game.round for game in games_in_play(tournament)} == {2}
