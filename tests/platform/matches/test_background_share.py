"""The background share of the workers (agon.matches.background): private tournaments'
and version tests' games get matches only while the share has room, the owner with the
fewest in flight first; the ladders keep the rest of the workers; a public tournament's
games are not held back."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from pytest_django import Settings

from agon.bots.models import Bot
from agon.ladders.models import Ladder
from agon.matches.background import background_cap, background_dispatch, background_in_flight
from agon.matches.models import Match
from agon.tournaments.models import Tournament, TournamentGame
from agon.tournaments.scheduling import tournament_close_entry
from agon.version_testing.models import VersionTest
from agon.version_testing.services import Baseline, version_test_create
from tests.platform.conftest import MakeBot
from tests.platform.support import finish_match, latest_version, ranked_match
from tests.platform.tournaments.support import after_entry, enter, open_tournament
from tests.platform.version_testing.support import bot_with_two_versions

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_slots(settings: Settings) -> Settings:
    """`agon up`'s default: two matches at once, half of them for the background."""
    settings.AGON_MATCH_SLOTS = 2
    settings.AGON_BACKGROUND_SHARE = 0.5
    return settings


@pytest.fixture
def ladder_busy(make_bot: MakeBot, bob: User, ladder_2p: Ladder) -> Match:
    """A ranked match waiting for a worker: the ladders want their share."""
    one, two = make_bot(bob, "ranked-one"), make_bot(bob, "ranked-two")
    return ranked_match(ladder_2p, [latest_version(one), latest_version(two)])


def private_swiss(owner: User, bots: list[Bot]) -> Tournament:
    tournament = open_tournament(owner, format="swiss", rounds=2)
    enter(tournament, bots, user=owner)
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    tournament.refresh_from_db()
    return tournament


def matched(tournament: Tournament) -> list[Match]:
    return list(
        Match.objects.filter(tournament_game__tournament=tournament).order_by("id"),
    )


def test_the_cap_is_the_share_of_the_slots_while_the_ladders_wait_and_all_of_them_else(
    two_slots: Settings,
) -> None:
    assert background_cap(ladders_waiting=True) == 1
    assert background_cap(ladders_waiting=False) == 2
    two_slots.AGON_MATCH_SLOTS = 8
    assert background_cap(ladders_waiting=True) == 4
    two_slots.AGON_BACKGROUND_SHARE = 0.01
    assert background_cap(ladders_waiting=True) == 1, "never less than one slot"


def test_a_private_swiss_of_many_games_holds_one_slot_of_two_while_the_ladders_wait(
    two_slots: Settings, ladder_busy: Match, make_bot: MakeBot, alice: User
) -> None:
    bots = [make_bot(alice, f"bot{n}") for n in range(8)]
    tournament = private_swiss(alice, bots)
    stored = TournamentGame.objects.filter(tournament=tournament).count()
    assert stored == 8, "the whole round is stored at once"
    (first,) = matched(tournament)
    assert first.background and first.status == Match.Status.QUEUED
    assert background_dispatch() == 0, "no room until it ends"
    finish_match(first, scores=[10, 20])
    background_dispatch()  # as once that end commits
    assert [m.id for m in matched(tournament) if m.status == Match.Status.QUEUED] != []
    assert background_in_flight() == {alice.id: 1}


def test_with_the_ladders_idle_the_background_takes_every_slot(
    two_slots: Settings, make_bot: MakeBot, alice: User
) -> None:
    tournament = private_swiss(alice, [make_bot(alice, f"bot{n}") for n in range(8)])
    assert len(matched(tournament)) == 2


def test_the_room_goes_to_the_owner_with_the_fewest_games_in_flight(
    two_slots: Settings, ladder_busy: Match, make_bot: MakeBot, alice: User, bob: User
) -> None:
    two_slots.AGON_MATCH_SLOTS = 4  # two background slots while the ladders wait
    tournament = private_swiss(alice, [make_bot(alice, f"bot{n}") for n in range(8)])
    assert len(matched(tournament)) == 2, "alone, alice takes both"
    hero = bot_with_two_versions(make_bot, bob)
    test = version_test_create(user=bob, bot=hero, candidate=2, baseline=Baseline(version=1))
    assert Match.objects.filter(version_test_game__test=test).count() == 0, "no room yet"
    first = matched(tournament)[0]
    finish_match(first, scores=[10, 20])
    background_dispatch()
    assert Match.objects.filter(version_test_game__test=test).count() == 1, "bob's turn"
    assert background_in_flight() == {alice.id: 1, bob.id: 1}
    test.refresh_from_db()
    assert test.status == VersionTest.Status.RUNNING


def test_a_public_tournament_is_not_held_back(
    two_slots: Settings, ladder_busy: Match, make_bot: MakeBot, alice: User, admin_user: User
) -> None:
    tournament = open_tournament(admin_user, format="swiss", rounds=2, public=True)
    enter(tournament, [make_bot(alice, f"bot{n}") for n in range(8)])
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    games = matched(tournament)
    assert len(games) == 8
    assert not any(game.background for game in games)
    assert background_in_flight() == {}


def test_one_owners_two_version_tests_take_turns(
    two_slots: Settings, ladder_busy: Match, make_bot: MakeBot, alice: User
) -> None:
    """The room goes to the work served least lately: a second test does not wait for
    the first to end."""
    hero = bot_with_two_versions(make_bot, alice)
    first = version_test_create(user=alice, bot=hero, candidate=2, baseline=Baseline(version=1))
    second = version_test_create(
        user=alice, bot=hero, candidate=2, baseline=Baseline(builtin="random")
    )
    served = []
    for _ in range(4):
        (playing,) = Match.objects.filter(background=True, status=Match.Status.QUEUED)
        served.append(VersionTest.objects.get(games__match=playing).id)
        finish_match(playing, scores=[10, 20])
        background_dispatch()
    assert served == [first.id, second.id, first.id, second.id]
