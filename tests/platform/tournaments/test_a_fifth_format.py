"""A new tournament format is its module and one registry line: the tests' own fifth
format (tests/competition/formats/toy.py), registered by the `one_round` fixture and
nowhere else, is made, entered, played and finished by the services, made and shown by
the API, shown by the pages, and played and drawn by `agon tournament`."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from agon.cli import main
from agon.tournaments.models import Tournament
from agon.tournaments.scheduling import tournament_close_entry
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.tournaments.support import after_entry, enter, open_tournament, play_out

pytestmark = pytest.mark.usefixtures("one_round")


def _finished(owner: User, make_bot: MakeBot, format: str, entrants: int = 5) -> Tournament:
    tournament = open_tournament(owner, format=format, players=2, meetings=1)
    enter(tournament, [make_bot(owner, f"bot{n}") for n in range(entrants)])
    assert tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    play_out(tournament)
    tournament.refresh_from_db()
    return tournament


@pytest.mark.django_db
def test_the_services_make_play_and_finish_it(
    one_round: str, make_bot: MakeBot, alice: User
) -> None:
    tournament = _finished(alice, make_bot, one_round)

    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.rounds is None, "it takes no rounds setting"
    points = {row["entrant"]: row["points"] for row in tournament.standings}
    assert len(points) == 5 and points[4] == 1.0, "the bye's bot: a game's point"
    assert tournament.games.filter(match__isnull=False).count() == 2 * 2  # two tables


@pytest.mark.django_db
def test_the_api_makes_it_and_shows_it(
    one_round: str, alice_client: APIClient, alice: User, make_bot: MakeBot
) -> None:
    closes = (timezone.now() + timedelta(hours=1)).isoformat()
    body = {"name": "cup", "game": "akropolis", "format": one_round, "entry_closes": closes}
    made = alice_client.post("/api/tournaments/", body, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["format"] == one_round

    tournament = _finished(alice, make_bot, one_round)
    shown = alice_client.get(f"/api/tournaments/{tournament.id}/")
    assert shown.status_code == 200
    assert (shown.json()["format"], len(shown.json()["standings"])) == (one_round, 5)

    unknown = alice_client.post("/api/tournaments/", {**body, "format": "lottery"}, format="json")
    assert unknown.status_code == 400


@pytest.mark.django_db
def test_the_pages_show_it(one_round: str, make_bot: MakeBot, alice: User) -> None:
    alice.set_password(PASSWORD)
    alice.save()
    client = Client()
    assert client.login(username=alice.username, password=PASSWORD)
    assert one_round in client.get("/tournaments/new/").content.decode()

    tournament = _finished(alice, make_bot, one_round)
    page = client.get(f"/tournaments/{tournament.id}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "one round" in html and "Round 1" in html
    assert "One Round" in client.get("/tournaments/").content.decode()


def test_agon_tournament_plays_and_draws_it(
    one_round: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bots = ("builtin:greedy", "builtin:random", "builtin:greedy")
    code = main(["tournament", "--game", "architekton", "--format", one_round, *bots])
    out = capsys.readouterr().out

    assert code == 0
    assert "standings" in out
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["format"] == one_round
    assert len(summary["matches"]) == 2  # one table of two, one bye
    assert len(summary["standings"]) == 3
