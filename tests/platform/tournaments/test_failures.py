"""A tournament game whose match fails (the platform's fault) is played again by a new
match on the same seats, dealt afresh; after AGON_TOURNAMENT_MAX_REPLAYS it counts as a tie.
A bot's fault is a result: the faulting bot loses that game."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from pytest_django import Settings

from agon.matches.background import background_dispatch
from agon.matches.models import Match
from agon.matches.outcome_registry import outcome_conclude
from agon.matches.services import match_claim, match_fail
from agon.tournaments.models import Tournament
from agon.tournaments.scheduling import tournament_close_entry
from tests.platform.conftest import MakeBot
from tests.platform.support import finish_match
from tests.platform.tournaments.support import after_entry, enter, games_in_play, open_tournament

pytestmark = pytest.mark.django_db


def fail(match: Match) -> None:
    """The match ends `failed`, as after a sandbox error on its last attempt; then the
    background share gives out the room it freed, as it does once that end commits."""
    token = match_claim(match_id=match.id)
    assert token is not None
    assert match_fail(match_id=match.id, token=token, error="the sandbox failed: made up")
    background_dispatch()


@pytest.fixture
def started(make_bot: MakeBot, alice: User) -> Tournament:
    """A gauntlet of two bots: one pair of games."""
    tournament = open_tournament(alice, format="gauntlet")
    enter(tournament, [make_bot(alice, "one"), make_bot(alice, "two")])
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    return tournament


def test_a_failed_match_is_replayed_by_a_new_one_on_the_same_seats_dealt_afresh(
    started: Tournament,
) -> None:
    game = games_in_play(started)[0]
    failed = game.match
    assert failed is not None
    fail(failed)
    game.refresh_from_db()
    assert game.ranks is None
    assert game.replays == 1
    replay = game.match
    assert replay is not None and replay.id != failed.id
    assert replay.status == Match.Status.QUEUED
    assert replay.kind == Match.Kind.TOURNAMENT
    assert replay.seed != failed.seed  # its bots may remember what they saw of the first
    seats = "seat", "version_id"
    assert list(replay.seats.values_list(*seats)) == list(failed.seats.values_list(*seats))
    finish_match(replay, scores=[10, 20])
    game.refresh_from_db()
    assert game.ranks == [2, 1]
    assert not game.void


def test_a_game_whose_matches_keep_failing_counts_as_a_tie(
    started: Tournament, settings: Settings
) -> None:
    settings.AGON_TOURNAMENT_MAX_REPLAYS = 1
    game = games_in_play(started)[0]
    for _ in range(2):
        assert game.match is not None
        fail(game.match)
        game.refresh_from_db()
    assert game.replays == 1
    assert game.void
    assert game.ranks == [1, 1]


def test_a_bots_fault_loses_its_game(started: Tournament) -> None:
    game = games_in_play(started)[0]
    assert game.match is not None
    finish_match(game.match, scores=[50, 10], faults={0: "timeout"})
    game.refresh_from_db()
    assert game.ranks == [2, 1]
    assert game.replays == 0


def test_a_failed_match_ended_twice_is_replayed_once(started: Tournament) -> None:
    game = games_in_play(started)[0]
    failed = game.match
    assert failed is not None
    fail(failed)
    failed.refresh_from_db()
    outcome_conclude(failed)  # as if its end were applied again
    background_dispatch()
    game.refresh_from_db()
    assert game.replays == 1
    assert Match.objects.filter(kind=Match.Kind.TOURNAMENT).count() == 3  # 2 games, 1 replay


def test_a_replayed_game_keeps_its_failed_attempts_in_order(
    started: Tournament, settings: Settings
) -> None:
    settings.AGON_TOURNAMENT_MAX_REPLAYS = 2
    game = games_in_play(started)[0]
    failed = []
    for _ in range(2):
        assert game.match is not None
        failed.append(game.match.id)
        fail(game.match)
        game.refresh_from_db()
    assert game.replays == 2
    assert list(game.attempts.order_by("id").values_list("id", flat=True)) == failed
    assert game.match is not None and game.match.id not in failed
