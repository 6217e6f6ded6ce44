"""A tournament's detail and games read as plain rows, and kept once it is decided: the
same JSON as the serializers give, made once for a finished tournament, made again after
a rename of one of its bots, and never kept while it runs or a match of it still plays."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from agon.api.tournaments import EntrySerializer, TournamentGameSerializer, entries_json
from agon.tournaments.cancellation import tournament_cancel
from agon.tournaments.kept import shown_key
from agon.tournaments.models import Entry, Tournament
from agon.tournaments.scheduling import tournament_close_entry
from agon.tournaments.selectors import entry_rows
from agon.tournaments.services import entry_withdraw
from tests.platform.conftest import MakeBot
from tests.platform.support import finish_match
from tests.platform.tournaments.support import (
    after_entry,
    enter,
    games_in_play,
    open_tournament,
    play_out,
)

pytestmark = pytest.mark.django_db

OnCommit = Callable[..., AbstractContextManager[list[Callable[[], Any]]]]


def started(
    make_bot: MakeBot, owner: User, names: tuple[str, ...] = ("ant", "bee", "cat")
) -> Tournament:
    tournament = open_tournament(owner, rounds=2)
    enter(tournament, [make_bot(owner, name) for name in names])
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    tournament.refresh_from_db()
    return tournament


def key_of(tournament: Tournament) -> str:
    kept = shown_key(tournament)
    assert kept is not None
    return kept[0]


def tables_read(client: APIClient, url: str) -> tuple[Any, set[str]]:
    """The JSON at `url`, and the tournament tables its queries named."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, response.content
    named = {
        table
        for table in ("tournaments_entry", "tournaments_tournamentgame", "matches_match")
        for query in queries.captured_queries
        if table in query["sql"]
    }
    return response.json(), named


def test_a_finished_tournaments_pages_are_made_once_and_a_rename_makes_them_again(
    make_bot: MakeBot,
    alice: User,
    alice_client: APIClient,
    django_capture_on_commit_callbacks: OnCommit,
) -> None:
    tournament = started(make_bot, alice)
    play_out(tournament)
    detail = f"/api/tournaments/{tournament.id}/"
    games = f"/api/tournaments/{tournament.id}/games/?page_size=3"

    made, made_from = tables_read(alice_client, detail)
    kept, kept_from = tables_read(alice_client, detail)
    assert made["status"] == "finished" and kept == made
    assert "tournaments_entry" in made_from and kept_from == set()
    page, _ = tables_read(alice_client, games)
    kept_page, kept_page_from = tables_read(alice_client, games)
    assert kept_page == page and kept_page_from == set()
    assert tables_read(alice_client, f"{games}&page=2")[0] != page  # each page its own

    ant = Entry.objects.get(tournament=tournament, bot__name="ant").bot
    with django_capture_on_commit_callbacks(execute=True):
        renamed = alice_client.patch(f"/api/bots/{ant.id}/", {"name": "ant2"}, format="json")
    assert renamed.status_code == 200

    after, after_from = tables_read(alice_client, detail)
    assert "tournaments_entry" in after_from
    assert sorted(entry["bot_name"] for entry in after["entries"]) == ["ant2", "bee", "cat"]
    seats = [
        seat for game in tables_read(alice_client, games)[0]["results"] for seat in game["seats"]
    ]
    labels = {seat["version"] for seat in seats if seat["bot"] == ant.id}
    assert labels == {"alice/ant2@v1"}
    # The final standings keep the label the bot played under, as its replays do.
    assert "alice/ant@v1" in {row["version"] for row in after["standings"]}


def test_a_running_tournament_shows_every_change_at_once(
    make_bot: MakeBot, alice: User, alice_client: APIClient
) -> None:
    tournament = started(make_bot, alice, ("ant", "bee", "cat", "dog"))
    url = f"/api/tournaments/{tournament.id}/games/"
    with CaptureQueriesContext(connection) as made:
        before = alice_client.get(url).json()["results"]
    with CaptureQueriesContext(connection) as kept:
        assert alice_client.get(url).json()["results"] == before
    assert {game["status"] for game in before} == {"queued"}
    assert len(kept) < len(made)  # the state's two counts, not the page
    assert not key_of(tournament).endswith(":settled")

    game = games_in_play(tournament)[0]
    assert game.match is not None
    finish_match(game.match, scores=[3, 1])
    after = {game["match"]: game for game in alice_client.get(url).json()["results"]}
    assert after[game.match.id]["status"] == "finished"
    assert after[game.match.id]["replay"].endswith(f"/api/matches/{game.match.id}/replay/")
    assert alice_client.get(f"/api/tournaments/{tournament.id}/").json()["progress"]["decided"] == 1


def test_a_cancelled_tournament_is_kept_only_once_none_of_its_matches_plays(
    make_bot: MakeBot, alice: User, alice_client: APIClient
) -> None:
    tournament = started(make_bot, alice, ("ant", "bee", "cat", "dog"))
    playing = games_in_play(tournament)[0].match
    assert playing is not None
    playing.status = "running"
    playing.save(update_fields=["status"])
    cancelled = tournament_cancel(user=alice, tournament_id=tournament.id)
    url = f"/api/tournaments/{tournament.id}/games/"

    assert not key_of(cancelled).endswith(":settled")  # its running match still ends
    shown = {game["match"]: game for game in alice_client.get(url).json()["results"]}
    assert shown[playing.id]["status"] == "running"
    playing.status = "queued"  # as finish_match takes it: it claims the match first
    playing.save(update_fields=["status"])
    finish_match(playing, scores=[5, 2])
    shown = {game["match"]: game for game in alice_client.get(url).json()["results"]}
    assert shown[playing.id]["status"] == "finished" and shown[playing.id]["replay"]
    assert key_of(cancelled).endswith(":settled")
    assert alice_client.get(url).json()["results"] == list(shown.values())


def test_entries_and_games_read_as_rows_give_the_serializers_json(
    make_bot: MakeBot, alice: User, alice_client: APIClient
) -> None:
    tournament = started(make_bot, alice, ("ant", "bee", "cat", "dog", "eel"))
    eel = Entry.objects.get(tournament=tournament, bot__name="eel")
    entry_withdraw(user=alice, tournament_id=tournament.id, entry_id=eel.id)
    models = list(Entry.objects.filter(tournament=tournament).order_by("number"))

    assert entries_json(entry_rows(tournament.id)) == list(EntrySerializer(models, many=True).data)
    shown = alice_client.get(f"/api/tournaments/{tournament.id}/").json()["entries"]
    assert [entry["withdrawn"] is not None for entry in shown] == [False] * 4 + [True]
    games = alice_client.get(f"/api/tournaments/{tournament.id}/games/").json()["results"]
    assert {key for game in games for key in game} == set(TournamentGameSerializer().fields)
    for game in games:
        for seat in game["seats"]:
            entry = models[seat["entrant"]]
            assert (seat["bot"], seat["version"]) == (entry.bot_id, entry.version.label)


def test_entries_shown_while_the_entry_is_open_follow_every_change(
    make_bot: MakeBot, alice: User, alice_client: APIClient
) -> None:
    """One bot leaving as another enters leaves the count as it was: the detail follows."""
    tournament = open_tournament(alice)
    url = f"/api/tournaments/{tournament.id}/"
    enter(tournament, [make_bot(alice, "ant"), make_bot(alice, "bee")])
    assert [entry["bot_name"] for entry in alice_client.get(url).json()["entries"]] == [
        "ant",
        "bee",
    ]
    ant = Entry.objects.get(tournament=tournament, bot__name="ant")
    entry_withdraw(user=alice, tournament_id=tournament.id, entry_id=ant.id)
    enter(tournament, [make_bot(alice, "cat")])
    shown = alice_client.get(url).json()["entries"]
    assert sorted(entry["bot_name"] for entry in shown) == ["bee", "cat"]
