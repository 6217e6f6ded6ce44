"""/api/tournaments/: making one (staff public, users private within a quota), entering
bots during the window, and a tournament's detail as it is played."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pytest_django import Settings
from rest_framework.test import APIClient

from agon.bots.services import bot_open_to_events
from agon.tournaments import selectors
from agon.tournaments.events import results_of_lines
from agon.tournaments.models import Tournament
from agon.tournaments.scheduling import tournament_close_entry
from tests.platform.conftest import MakeBot, client_for
from tests.platform.support import finish_match
from tests.platform.tournaments.support import (
    after_entry,
    enter,
    games_in_play,
    open_tournament,
    play_out,
)
from tests.platform.tournaments.test_failures import fail

pytestmark = pytest.mark.django_db


def soon() -> str:
    return (timezone.now() + timedelta(hours=1)).isoformat()


def made(client: APIClient, **given: Any) -> Any:
    body = {"name": "cup", "game": "akropolis", "format": "swiss", "entry_closes": soon()}
    return client.post("/api/tournaments/", {**body, **given}, format="json")


@pytest.fixture
def staff_client(db: None) -> APIClient:
    return client_for(User.objects.create_user("root", is_staff=True))


def test_a_user_makes_a_private_tournament(alice_client: APIClient, alice: User) -> None:
    response = made(alice_client, format="round-robin", meetings=2)

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["owner"], body["public"], body["status"]) == ("alice", False, "entry")
    assert (body["format"], body["meetings"], body["entries"]) == ("round-robin", 2, [])
    assert Tournament.objects.get(id=body["id"]).owner == alice


def test_only_staff_make_public_tournaments(
    alice_client: APIClient, staff_client: APIClient
) -> None:
    refused = made(alice_client, public=True)
    assert refused.status_code == 403
    assert "only staff" in refused.json()["error"]
    assert made(staff_client, public=True).status_code == 201


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"game": "chess"}, "game"),
        ({"format": "ladder"}, "format"),
        ({"players": 3, "format": "gauntlet"}, "players must be 2"),
        ({"players": 7}, "players"),
        ({"rounds": 3, "format": "knockout"}, "only a Swiss"),
        ({"options": {"no_such_option": True}}, "unknown option"),
        ({"entry_closes": "2001-01-01T00:00:00Z"}, "in the future"),
        ({"max_entrants": 1}, "max_entrants"),
        ({"max_entrants": 200, "format": "round-robin", "meetings": 5}, "could play"),
    ],
)
def test_a_tournament_that_cannot_be_made_is_a_clear_400(
    alice_client: APIClient, given: dict[str, Any], message: str
) -> None:
    response = made(alice_client, **given)
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_private_tournaments_are_bounded_by_a_quota(
    alice_client: APIClient, settings: Settings
) -> None:
    settings.AGON_PRIVATE_TOURNAMENTS_PER_USER = 2
    assert [made(alice_client).status_code for _ in range(2)] == [201, 201]
    refused = made(alice_client)
    assert refused.status_code == 400
    assert "AGON_PRIVATE_TOURNAMENTS_PER_USER = 2" in refused.json()["error"]


def test_anonymous_users_read_but_do_not_make(anonymous: APIClient) -> None:
    assert anonymous.get("/api/tournaments/").status_code == 200
    assert made(anonymous).status_code == 401


def test_a_private_tournament_is_its_owners_alone(
    alice: User, alice_client: APIClient, bob_client: APIClient, anonymous: APIClient
) -> None:
    private = open_tournament(alice)
    url = f"/api/tournaments/{private.id}/"

    assert alice_client.get(url).status_code == 200
    assert bob_client.get(url).status_code == 404
    assert anonymous.get(url).status_code == 404
    assert [t["id"] for t in alice_client.get("/api/tournaments/").json()["results"]] == [
        private.id
    ]
    assert bob_client.get("/api/tournaments/").json()["results"] == []


def test_users_enter_their_own_bots_into_a_public_tournament(
    make_bot: MakeBot, alice: User, bob: User, alice_client: APIClient
) -> None:
    cup = open_tournament(User.objects.create_user("root", is_staff=True), public=True)
    mine, theirs = make_bot(alice, "ant"), make_bot(bob, "bee")
    url = f"/api/tournaments/{cup.id}/entries/"

    entered = alice_client.post(url, {"bot": mine.id}, format="json")
    assert entered.status_code == 201, entered.json()
    assert entered.json()["bot_name"] == "ant"
    again = alice_client.post(url, {"bot": mine.id}, format="json")
    assert (again.status_code, again.json()["error"]) == (400, "the bot 'ant' is already entered")
    refused = alice_client.post(url, {"bot": theirs.id}, format="json")
    assert refused.status_code == 403


def test_the_owner_of_a_private_tournament_enters_anyones_bots_open_to_events(
    make_bot: MakeBot, alice: User, bob: User, alice_client: APIClient, bob_client: APIClient
) -> None:
    private = open_tournament(alice)
    theirs = bot_open_to_events(bot=make_bot(bob, "bee"), open_to_events=True)
    url = f"/api/tournaments/{private.id}/entries/"

    assert bob_client.post(url, {"bot": theirs.id}, format="json").status_code == 404
    assert alice_client.post(url, {"bot": theirs.id}, format="json").status_code == 201
    # Bob sees it now (his bot is in it), but only its owner enters bots.
    assert bob_client.post(url, {"bot": theirs.id}, format="json").status_code == 403


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("other game", "plays architekton, not akropolis"),
        ("no active version", "has no active version yet"),
        ("closed", "the entry of this tournament is closed"),
        ("full", "the tournament is full (2 entrants)"),
    ],
)
def test_an_entry_refused_says_why(
    make_bot: MakeBot, alice: User, alice_client: APIClient, case: str, message: str
) -> None:
    tournament = open_tournament(alice, max_entrants=2)
    bot = make_bot(alice, "ant", game="architekton" if case == "other game" else "akropolis")
    if case == "no active version":
        bot = make_bot(alice, "new", active=False)
    if case == "closed":
        Tournament.objects.filter(id=tournament.id).update(entry_closes=timezone.now())
    if case == "full":
        for name in ("one", "two"):
            other = make_bot(alice, name)
            url = f"/api/tournaments/{tournament.id}/entries/"
            assert alice_client.post(url, {"bot": other.id}, format="json").status_code == 201
    response = alice_client.post(
        f"/api/tournaments/{tournament.id}/entries/", {"bot": bot.id}, format="json"
    )
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_a_tournaments_detail_shows_rounds_games_standings_and_progress(
    make_bot: MakeBot, alice: User, alice_client: APIClient
) -> None:
    tournament = open_tournament(alice, rounds=2)
    for name in ("ant", "bee", "cat"):
        bot = make_bot(alice, name)
        url = f"/api/tournaments/{tournament.id}/entries/"
        assert alice_client.post(url, {"bot": bot.id}, format="json").status_code == 201
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    url = f"/api/tournaments/{tournament.id}/"

    running = alice_client.get(url).json()
    assert running["status"] == "running"
    assert [entry["entrant"] for entry in running["entries"]] == [0, 1, 2]
    assert "rounds_played" not in running  # the games are paged apart
    assert running["games"].endswith(f"/api/tournaments/{tournament.id}/games/")
    first = alice_client.get(running["games"]).json()
    assert first["count"] == 4
    assert {game["round"] for game in first["results"]} == {1}
    statuses = sorted(game["status"] for game in first["results"])
    assert statuses == ["bye", "bye", "queued", "queued"]
    played = [game for game in first["results"] if game["status"] == "queued"]
    assert all(game["match"] and game["replay"] is None for game in played)
    assert all(game["attempts"] == [] for game in played)
    assert running["progress"] == {"games": 2, "decided": 0, "round": 1, "rounds": 2}
    assert len(running["standings"]) == 3  # live: the bye already counts

    play_out(tournament)
    finished = alice_client.get(url).json()
    assert finished["status"] == "finished"
    assert finished["progress"] == {"games": 4, "decided": 4, "round": 2, "rounds": 2}
    games = alice_client.get(finished["games"]).json()["results"]
    replays = [game["replay"] for game in games if game["status"] == "finished"]
    assert len(replays) == 4
    assert all(link.endswith(f"/api/matches/{link.split('/')[-3]}/replay/") for link in replays)
    assert alice_client.get(replays[0]).status_code == 200
    ranks = [row["rank"] for row in finished["standings"]]
    assert ranks == sorted(ranks)
    assert {"buchholz_cut1", "buchholz", "wins"} <= set(finished["standings"][0]["tiebreaks"])
    assert finished["standings"][0]["version"].startswith("alice/")


def test_a_tournaments_games_are_paged_and_filtered_by_round(
    make_bot: MakeBot, alice: User, alice_client: APIClient
) -> None:
    tournament = open_tournament(alice, rounds=2)
    for name in ("ant", "bee", "cat", "dog"):
        bot = make_bot(alice, name)
        url = f"/api/tournaments/{tournament.id}/entries/"
        assert alice_client.post(url, {"bot": bot.id}, format="json").status_code == 201
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    play_out(tournament)
    url = f"/api/tournaments/{tournament.id}/games/"

    everything = alice_client.get(url).json()
    assert everything["count"] == 8  # 2 rounds of 2 tables of 2 games
    keys = [(game["round"], game["tie"], game["index"]) for game in everything["results"]]
    assert keys == sorted(keys)
    page = alice_client.get(url, {"page_size": 3, "page": 2}).json()
    assert [(g["round"], g["tie"], g["index"]) for g in page["results"]] == keys[3:6]
    assert page["next"] and page["previous"]
    second = alice_client.get(url, {"round": 2}).json()
    assert second["count"] == 4
    assert {game["round"] for game in second["results"]} == {2}
    assert alice_client.get(url, {"round": 0}).status_code == 400
    assert alice_client.get(url, {"page": 9}).status_code == 404


def test_a_big_tournaments_detail_is_bounded_whatever_its_games(
    make_bot: MakeBot, alice: User, alice_client: APIClient
) -> None:
    counted, sizes = [], []
    for entrants in (3, 8):
        tournament = open_tournament(alice, format="round-robin", name=f"of {entrants}")
        for number in range(entrants):
            bot = make_bot(alice, f"b{entrants}-{number}")
            url = f"/api/tournaments/{tournament.id}/entries/"
            assert alice_client.post(url, {"bot": bot.id}, format="json").status_code == 201
        tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
        play_out(tournament)
        with CaptureQueriesContext(connection) as queries:
            response = alice_client.get(f"/api/tournaments/{tournament.id}/")
        assert response.status_code == 200
        counted.append(len(queries))
        sizes.append(len(response.content) / entrants)
    assert counted[0] == counted[1]
    # The body grows with the entrants (entries, standings), not with the 56 games.
    assert sizes[1] < 1.5 * sizes[0]


def test_an_entry_is_withdrawn_while_the_entry_is_open(
    make_bot: MakeBot, alice: User, bob: User, alice_client: APIClient, bob_client: APIClient
) -> None:
    cup = open_tournament(User.objects.create_user("root", is_staff=True), public=True)
    url = f"/api/tournaments/{cup.id}/entries/"
    entered = alice_client.post(url, {"bot": make_bot(alice, "ant").id}, format="json").json()
    assert bob_client.post(url, {"bot": make_bot(bob, "bee").id}, format="json").status_code == 201
    mine = f"{url}{entered['id']}/"

    refused = bob_client.delete(mine)
    assert (refused.status_code, refused.json()["error"]) == (
        403,
        "only the bot's owner withdraws its entry",
    )
    assert alice_client.delete(mine).status_code == 204
    assert alice_client.delete(mine).status_code == 404  # gone: nothing more to do
    entries = alice_client.get(f"/api/tournaments/{cup.id}/").json()["entries"]
    assert [entry["bot_name"] for entry in entries] == ["bee"]

    Tournament.objects.filter(id=cup.id).update(entry_closes=timezone.now())
    theirs = f"{url}{entries[0]['id']}/"
    closed = bob_client.delete(theirs)
    assert closed.status_code == 400
    assert "closed" in closed.json()["error"]


def test_a_tournament_is_cancelled_by_its_owner_or_staff_once(
    make_bot: MakeBot, alice: User, alice_client: APIClient, staff_client: APIClient
) -> None:
    private = open_tournament(alice)
    public = open_tournament(User.objects.get(username="root"), public=True, name="open")
    assert alice_client.post(f"/api/tournaments/{public.id}/cancel/").status_code == 403

    first = alice_client.post(f"/api/tournaments/{private.id}/cancel/")
    assert first.status_code == 200
    assert first.json()["status"] == "cancelled"
    assert first.json()["note"].startswith("cancelled by alice")
    again = alice_client.post(f"/api/tournaments/{private.id}/cancel/")
    assert again.json() == first.json()
    assert staff_client.post(f"/api/tournaments/{public.id}/cancel/").status_code == 200
    listed = alice_client.get("/api/tournaments/", {"status": "cancelled"}).json()["results"]
    assert {t["id"] for t in listed} == {private.id, public.id}


def test_a_replayed_game_lists_its_failed_attempts(
    make_bot: MakeBot, alice: User, alice_client: APIClient
) -> None:
    tournament = open_tournament(alice, format="gauntlet")
    enter(tournament, [make_bot(alice, "one"), make_bot(alice, "two")])
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    game = games_in_play(tournament)[0]
    assert game.match is not None
    failed = game.match.id
    fail(game.match)

    games = alice_client.get(f"/api/tournaments/{tournament.id}/games/").json()["results"]
    replayed = next(g for g in games if g["tie"] == game.tie and g["index"] == game.index)
    assert (replayed["replays"], replayed["attempts"]) == (1, [failed])
    assert replayed["match"] != failed


def test_a_running_tournaments_standings_are_computed_once_per_state(
    make_bot: MakeBot,
    alice: User,
    alice_client: APIClient,
    anonymous: APIClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The standings of a public tournament's 20,000 games took 0.7 s a request: they
    are kept in the shared cache under the tournament's state (as its page's live part),
    and computed again when a game is decided."""
    tournament = open_tournament(alice, rounds=2, public=False)
    for name in ("ant", "bee", "cat", "dog"):
        bot = make_bot(alice, name)
        url = f"/api/tournaments/{tournament.id}/entries/"
        assert alice_client.post(url, {"bot": bot.id}, format="json").status_code == 201
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    computed = []
    real = results_of_lines

    def counting(lines: Any) -> Any:
        computed.append(1)
        return real(lines)

    monkeypatch.setattr(selectors, "results_of_lines", counting)
    url = f"/api/tournaments/{tournament.id}/"

    first, again = alice_client.get(url).json(), alice_client.get(url).json()
    assert len(computed) == 1
    assert first["standings"] == again["standings"]
    game = games_in_play(tournament)[0]
    assert game.match is not None
    finish_match(game.match, scores=[3, 1])
    after = alice_client.get(url).json()
    assert len(computed) == 2
    assert after["progress"]["decided"] == 1
    assert after["standings"] != first["standings"]
