"""Withdrawing an entry while the entry is open (the bot's owner, who entered it, or the
tournament's owner), and cancelling a tournament that has not finished (its owner if
private, or staff): queued games are not played, running ones finish and are ignored,
the standings are frozen."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404
from django.utils import timezone

from agon.bots.services import bot_open_to_events
from agon.matches.models import Match
from agon.matches.services import match_claim, match_finish
from agon.tournaments.cancellation import NOT_PLAYED, tournament_cancel
from agon.tournaments.models import Entry, Tournament
from agon.tournaments.scheduling import tournament_advance, tournament_close_entry
from agon.tournaments.services import entry_withdraw
from tests.platform.conftest import MakeBot
from tests.platform.support import finish_match, made_up_record
from tests.platform.tournaments.support import (
    after_entry,
    enter,
    games_in_play,
    lower_seat_wins,
    open_tournament,
    play_out,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_user("root", is_staff=True)


def test_a_bots_owner_withdraws_its_entry_from_a_public_tournament(
    make_bot: MakeBot, staff: User, alice: User, bob: User
) -> None:
    cup = open_tournament(staff, public=True)
    ant, bee = make_bot(alice, "ant"), make_bot(bob, "bee")
    enter(cup, [ant, bee])
    entry = Entry.objects.get(tournament=cup, bot=ant)

    with pytest.raises(PermissionDenied):
        entry_withdraw(user=bob, tournament_id=cup.id, entry_id=entry.id)
    entry_withdraw(user=alice, tournament_id=cup.id, entry_id=entry.id)
    assert list(cup.entries.values_list("bot__name", flat=True)) == ["bee"]
    with pytest.raises(Http404):  # withdrawn already: nothing changes
        entry_withdraw(user=alice, tournament_id=cup.id, entry_id=entry.id)
    enter(cup, [ant])  # and it may enter again


def test_a_private_tournaments_owner_withdraws_the_bots_they_entered(
    make_bot: MakeBot, alice: User, bob: User, carol: User
) -> None:
    private = open_tournament(alice)
    bee = bot_open_to_events(bot=make_bot(bob, "bee"), open_to_events=True)
    enter(private, [bee], alice)
    entry = Entry.objects.get(tournament=private, bot=bee)
    with pytest.raises(Http404):  # carol does not see alice's private tournament
        entry_withdraw(user=carol, tournament_id=private.id, entry_id=entry.id)
    entry_withdraw(user=alice, tournament_id=private.id, entry_id=entry.id)
    assert not private.entries.exists()


def test_no_entry_is_withdrawn_once_the_tournament_is_over(make_bot: MakeBot, alice: User) -> None:
    tournament = open_tournament(alice)
    enter(tournament, [make_bot(alice, "ant"), make_bot(alice, "bee")])
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    tournament_cancel(user=alice, tournament_id=tournament.id)
    entry = tournament.entries.first()
    assert entry is not None
    with pytest.raises(ValidationError, match="over"):
        entry_withdraw(user=alice, tournament_id=tournament.id, entry_id=entry.id)


def test_cancelling_a_running_tournament_stops_its_queued_games_and_freezes_it(
    make_bot: MakeBot, alice: User
) -> None:
    tournament = open_tournament(alice, format="round-robin")
    enter(tournament, [make_bot(alice, f"bot{i}") for i in range(4)])
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    decided, running, *queued = games_in_play(tournament)
    assert decided.match and running.match and queued
    finish_match(decided.match, scores=lower_seat_wins(decided.match))
    token = match_claim(match_id=running.match.id)  # a worker plays it
    assert token is not None

    cancelled = tournament_cancel(user=alice, tournament_id=tournament.id)
    assert cancelled.status == Tournament.Status.CANCELLED
    assert cancelled.finished is not None
    assert cancelled.note.startswith("cancelled by alice")
    assert sum(row["points"] for row in cancelled.standings) == 1  # the one game decided
    for game in queued:
        assert game.match is not None
        game.match.refresh_from_db()
        assert (game.match.status, game.match.error) == (Match.Status.FAILED, NOT_PLAYED)
        assert match_claim(match_id=game.match.id) is None  # no worker plays it

    record = made_up_record(running.match, scores=lower_seat_wins(running.match))
    with transaction.atomic():
        assert match_finish(match_id=running.match.id, token=token, record=record, started=0.0)
    running.refresh_from_db()
    assert running.ranks is None  # it finished, and is ignored
    assert not tournament_advance(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert tournament.standings == cancelled.standings
    assert tournament.games.count() == 1 + 1 + len(queued)  # no replay, no new round


def test_cancelling_is_idempotent_and_a_finished_tournament_stays_finished(
    make_bot: MakeBot, alice: User
) -> None:
    open_one = open_tournament(alice)
    first = tournament_cancel(user=alice, tournament_id=open_one.id)
    again = tournament_cancel(user=alice, tournament_id=open_one.id)
    assert (again.status, again.note, again.finished) == (first.status, first.note, first.finished)

    done = open_tournament(alice, format="gauntlet", name="done")
    enter(done, [make_bot(alice, "ant"), make_bot(alice, "bee")])
    tournament_close_entry(tournament_id=done.id, now=after_entry(done))
    play_out(done)
    with pytest.raises(ValidationError, match="finished"):
        tournament_cancel(user=alice, tournament_id=done.id)


def test_who_may_cancel(make_bot: MakeBot, staff: User, alice: User, bob: User) -> None:
    private = open_tournament(alice)
    public = open_tournament(staff, public=True, name="public")
    with pytest.raises(Http404):
        tournament_cancel(user=bob, tournament_id=private.id)
    with pytest.raises(PermissionDenied):
        tournament_cancel(user=alice, tournament_id=public.id)
    assert tournament_cancel(user=staff, tournament_id=private.id).status == "cancelled"
    assert tournament_cancel(user=staff, tournament_id=public.id).status == "cancelled"
    finished = Tournament.objects.get(id=public.id).finished
    assert finished is not None and finished <= timezone.now()
