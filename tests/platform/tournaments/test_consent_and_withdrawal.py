"""Nobody's bot is drafted without consent: another user's bot enters a private
tournament only if its owner opened it to events. A bot's owner sees every tournament
their bot is entered in (the API and the owner's page of the bot) and leaves it: before
it starts the entry is removed; while it runs the bot forfeits every game it has left
(`agon.tournaments.withdrawal`) and the tournament still finishes.

Run on PostgreSQL here and on SQLite by tests/platform/test_private_events_on_sqlite.py."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from agon.bots.models import Bot
from agon.bots.services import bot_open_to_events
from agon.matches.models import Match
from agon.tournaments.models import Entry, Tournament, TournamentGame
from agon.tournaments.scheduling import tournament_advance, tournament_close_entry
from agon.tournaments.services import entry_create, entry_withdraw
from agon.tournaments.withdrawal import FORFEITED, forfeit_ranks
from tests.platform.conftest import MakeBot, client_for
from tests.platform.support import finish_match
from tests.platform.tournaments.support import (
    after_entry,
    enter,
    games_in_play,
    lower_seat_wins,
    open_tournament,
    play_out,
)

pytestmark = pytest.mark.django_db


def test_another_users_bot_is_not_entered_without_its_owners_consent(
    make_bot: MakeBot, alice: User, bob: User
) -> None:
    private = open_tournament(alice)
    bee = make_bot(bob, "bee")
    with pytest.raises(PermissionDenied, match="not open to events"):
        entry_create(user=alice, tournament_id=private.id, bot_id=bee.id)
    response = client_for(alice).post(
        f"/api/tournaments/{private.id}/entries/", {"bot": bee.id}, format="json"
    )
    assert response.status_code == 403
    assert not private.entries.exists()


def test_a_bot_open_to_events_is_entered_at_once_and_its_own_owners_always_are(
    make_bot: MakeBot, alice: User, bob: User
) -> None:
    private = open_tournament(alice)
    ant, bee = make_bot(alice, "ant"), make_bot(bob, "bee")
    assert not bee.open_to_events, "closed by default"
    bob_api = client_for(bob)
    opened = bob_api.patch(f"/api/bots/{bee.id}/", {"open_to_events": True}, format="json")
    assert opened.status_code == 200 and opened.json()["open_to_events"] is True

    enter(private, [ant, bee], alice)
    assert set(private.entries.values_list("bot_id", flat=True)) == {ant.id, bee.id}


def test_only_its_owner_opens_a_bot_to_events(make_bot: MakeBot, alice: User, bob: User) -> None:
    bee = make_bot(bob, "bee")
    response = client_for(alice).patch(
        f"/api/bots/{bee.id}/", {"open_to_events": True}, format="json"
    )
    assert response.status_code == 403
    bee.refresh_from_db()
    assert not bee.open_to_events


def test_a_bots_owner_sees_the_private_tournaments_it_is_entered_in_and_leaves_before_the_start(
    make_bot: MakeBot, alice: User, bob: User, carol: User
) -> None:
    private = open_tournament(alice, name="alice's cup")
    bee = bot_open_to_events(bot=make_bot(bob, "bee"), open_to_events=True)
    enter(private, [bee], alice)
    bob_api = client_for(bob)

    assert bob_api.get(f"/api/tournaments/{private.id}/").status_code == 200
    assert private.id in {t["id"] for t in bob_api.get("/api/tournaments/").json()["results"]}
    (entry,) = bob_api.get(f"/api/bots/{bee.id}/entries/").json()["results"]
    assert entry["tournament"]["name"] == "alice's cup"
    assert client_for(carol).get(f"/api/bots/{bee.id}/entries/").json()["count"] == 0
    assert client_for(carol).get(f"/api/tournaments/{private.id}/").status_code == 404

    withdrawn = bob_api.delete(f"/api/tournaments/{private.id}/entries/{entry['id']}/")
    assert withdrawn.status_code == 204
    assert not private.entries.exists()


def running_round_robin(owner: User, bots: list[Bot]) -> Tournament:
    tournament = open_tournament(owner, format="round-robin", meetings=2)
    enter(tournament, bots, owner)
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    return tournament


def test_a_bot_withdrawn_while_the_tournament_runs_forfeits_its_remaining_games(
    make_bot: MakeBot, alice: User, bob: User
) -> None:
    bee = bot_open_to_events(bot=make_bot(bob, "bee"), open_to_events=True)
    bots = [make_bot(alice, "ant"), bee, make_bot(alice, "cat"), make_bot(alice, "dog")]
    tournament = running_round_robin(alice, bots)
    played, *undecided = games_in_play(tournament)
    assert played.match is not None
    finish_match(played.match, scores=lower_seat_wins(played.match))
    entry = Entry.objects.get(tournament=tournament, bot=bee)
    number = entry.number
    assert number is not None
    bee_undecided = [game for game in undecided if number in game.bots]
    assert bee_undecided

    response = client_for(bob).delete(f"/api/tournaments/{tournament.id}/entries/{entry.id}/")
    assert response.status_code == 204

    entry.refresh_from_db()
    assert entry.withdrawn is not None
    for game in bee_undecided:
        game.refresh_from_db()
        assert game.forfeited
        assert game.ranks == forfeit_ranks(game.bots, {number})
        assert game.ranks[game.bots.index(number)] == 2, "the withdrawn bot loses"
        assert game.match is not None
        game.match.refresh_from_db()
        assert (game.match.status, game.match.error) == (Match.Status.FAILED, FORFEITED)
    played.refresh_from_db()
    assert played.ranks is not None and not played.forfeited, "a played game keeps its result"

    play_out(tournament)  # the others play on, and every later game of bee's is a forfeit
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    bee_games = [
        game for game in TournamentGame.objects.filter(tournament=tournament) if number in game.bots
    ]
    assert all(game.forfeited for game in bee_games if game.id != played.id)
    bee_standing = next(row for row in tournament.standings if row["bot"] == bee.id)
    assert bee_standing["rank"] == len(bots), "last: it lost every game it left"
    shown = client_for(bob).get(f"/api/tournaments/{tournament.id}/games/").json()["results"]
    statuses = {
        game["status"] for game in shown if number in [seat["entrant"] for seat in game["seats"]]
    }
    assert statuses <= {"forfeit", "finished"} and "forfeit" in statuses


def test_games_paired_after_a_withdrawal_are_forfeits_as_they_are_stored(
    make_bot: MakeBot, alice: User
) -> None:
    bots = [make_bot(alice, name) for name in ("ant", "bee", "cat", "dog")]
    tournament = open_tournament(alice, format="swiss", rounds=3)
    enter(tournament, bots)
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    leaving = Entry.objects.get(tournament=tournament, bot=bots[1])
    assert leaving.number is not None
    entry_withdraw(user=alice, tournament_id=tournament.id, entry_id=leaving.id)
    for game in games_in_play(tournament):
        if game.match is not None and game.match.status == Match.Status.QUEUED:
            finish_match(game.match, scores=lower_seat_wins(game.match))
    tournament_advance(tournament_id=tournament.id)

    later = TournamentGame.objects.filter(tournament=tournament, round=2)
    paired = [game for game in later if leaving.number in game.bots]
    assert paired, "the Swiss pairs the withdrawn bot like any other"
    for game in paired:
        assert game.forfeited and game.match is None
        assert game.ranks == forfeit_ranks(game.bots, {leaving.number})


def test_forfeit_ranks_put_the_withdrawn_seats_last_and_the_others_first_together() -> None:
    assert forfeit_ranks([3, 5], {5}) == [1, 2]
    assert forfeit_ranks([0, 1, 2, 3], {1}) == [1, 4, 1, 1]
    assert forfeit_ranks([0, 1, 2], {0, 2}) == [2, 1, 2], "sharing the place after"
    assert forfeit_ranks([0, 1], {0, 1}) == [1, 1], "both gone: a tie"


def test_the_owners_page_lists_its_tournaments_with_a_withdraw_button_and_the_consent_switch(
    make_bot: MakeBot, alice: User, bob: User, client: Client
) -> None:
    bee = bot_open_to_events(bot=make_bot(bob, "bee"), open_to_events=True)
    private = open_tournament(alice, name="alice's cup")
    enter(private, [bee], alice)
    entry = Entry.objects.get(tournament=private, bot=bee)
    client.force_login(bob)
    page = client.get(reverse("web:my-bot", args=[bee.id])).content.decode()
    assert "alice&#x27;s cup" in page
    withdraw = reverse("web:tournament-withdraw", args=[private.id, entry.id])
    assert f'action="{withdraw}"' in page
    assert 'name="open_to_events" checked' in page

    closed = client.post(reverse("web:my-bot-open-to-events", args=[bee.id]), {})
    assert closed.status_code == 302
    bee.refresh_from_db()
    assert not bee.open_to_events
    assert client.post(withdraw).status_code == 302
    assert not private.entries.exists()
    assert client.get(reverse("web:tournament", args=[private.id])).status_code == 404
