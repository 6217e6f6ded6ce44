"""What the API and the pages show of a competition in each phase: the list by phase,
the countdown, the rules written from its fields, the live leaderboard, the archive, a
bot's history; entering a bot from the page, and taking it out until the freeze; what
an author controls is escaped."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from agon.bots.models import Bot
from agon.competitions.models import Competition
from tests.platform.competitions.support import (
    at,
    climb,
    enter,
    finished_season,
    its_ladder,
    season,
    staff_user,
)
from tests.platform.conftest import PASSWORD, MakeBot, client_for

Phase = Competition.Phase


@pytest.fixture
def bots(make_bot: MakeBot, alice: User, bob: User, carol: User) -> list[Bot]:
    return [make_bot(alice, "ant"), make_bot(bob, "bee"), make_bot(carol, "cat")]


def test_the_api_shows_a_running_competition_and_its_live_ladder(
    bots: list[Bot], anonymous: APIClient
) -> None:
    competition = season(staff_user())
    enter(competition, bots)
    at(competition.opens)
    climb(its_ladder(competition), [bots[2], bots[0], bots[1]], games=1)

    shown = anonymous.get(f"/api/competitions/{competition.id}/").json()
    assert shown["phase"] == "open" and shown["entrants"] == 3
    assert shown["next_phase"]["what"] == "submissions freeze"
    assert shown["final"] == {
        "format": "round-robin",
        "format_label": "Round Robin",
        "size": 2,
        "players": 2,
        "meetings": 1,
        "rounds": None,
        "tournament": None,
    }
    assert [ladder["players"] for ladder in shown["ladders"]] == [2]
    standings = anonymous.get(f"/api/competitions/{competition.id}/standings/").json()
    assert standings["stage"] == "ladder"
    assert [row["bot_name"] for row in standings["rows"]] == ["cat", "ant", "bee"]
    assert all(row["digest"] == "" for row in standings["rows"])  # not frozen yet

    listed = anonymous.get("/api/competitions/?phase=open").json()
    assert [row["id"] for row in listed["results"]] == [competition.id]
    assert anonymous.get("/api/competitions/?phase=finished").json()["results"] == []
    assert anonymous.get("/api/competitions/?phase=nonsense").status_code == 400
    # The open ladders' list leaves a competition's ladder out.
    ladders = anonymous.get("/api/ladders/?page_size=100").json()["results"]
    assert its_ladder(competition).id not in [ladder["id"] for ladder in ladders]


def test_the_api_shows_the_archive_and_a_bots_history(
    bots: list[Bot], anonymous: APIClient
) -> None:
    ant, bee, cat = bots
    competition = finished_season(staff_user(), [bee, cat, ant])
    shown = anonymous.get(f"/api/competitions/{competition.id}/").json()
    assert shown["phase"] == "finished" and shown["next_phase"] is None
    assert shown["final"]["tournament"] == competition.final_id
    standings = anonymous.get(f"/api/competitions/{competition.id}/standings/").json()
    assert standings["stage"] == "archive"
    assert [(row["bot_name"], row["rank"]) for row in standings["rows"]] == [
        ("bee", 1),
        ("cat", 2),
        ("ant", None),
    ]
    assert all(len(row["digest"]) == 64 for row in standings["rows"])
    games = anonymous.get(f"/api/competitions/{competition.id}/games/").json()
    assert games["count"] >= 1
    assert {seat["name"] for seat in games["results"][0]["seats"]} == {"bee", "cat"}
    history = anonymous.get(f"/api/bots/{bee.id}/competitions/").json()
    assert [(row["competition"]["id"], row["rank"], row["ladder_place"]) for row in history] == [
        (competition.id, 1, 1)
    ]
    assert anonymous.get(f"/api/bots/{ant.id}/competitions/").json()[0]["rank"] is None


def test_an_entry_is_refused_after_the_freeze_and_for_anothers_bot(
    bots: list[Bot], alice: User
) -> None:
    competition = season(staff_user())
    client = client_for(alice)
    other = client.post(
        f"/api/competitions/{competition.id}/entries/", {"bot": bots[1].id}, format="json"
    )
    assert other.status_code == 403
    assert (
        client.post(
            f"/api/competitions/{competition.id}/entries/", {"bot": bots[0].id}, format="json"
        ).status_code
        == 201
    )
    again = client.post(
        f"/api/competitions/{competition.id}/entries/", {"bot": bots[0].id}, format="json"
    )
    assert again.status_code == 400 and "entered already" in str(again.json()["detail"])
    at(competition.freezes)
    late = client.post(
        f"/api/competitions/{competition.id}/entries/", {"bot": bots[0].id}, format="json"
    )
    assert late.status_code == 400 and "frozen" in str(late.json()["detail"])


def _signed_in(user: User) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_the_pages_show_each_group_the_countdown_the_rules_and_the_archive(
    bots: list[Bot], alice: User
) -> None:
    staff = staff_user()
    past = finished_season(staff, [bots[2], bots[1], bots[0]])
    upcoming = season(staff, name="Winter season", rules="Be <b>kind</b>.\n\nNo sharing.")
    client = Client()

    listing = client.get("/competitions/").content.decode()
    assert listing.index("Winter season") < listing.index("Autumn season")  # upcoming first
    assert 'id="group-running"' in listing and "No competition is running now." in listing

    page = client.get(f"/competitions/{upcoming.id}/").content.decode()
    assert "data-countdown" in page and "Opens" in page
    assert "Be &lt;b&gt;kind&lt;/b&gt;." in page  # staff's text, escaped all the same
    assert "1 s a turn" in page and "MiB of memory" in page  # the limits, from the sandbox
    assert "round robin of the top 2" in page
    assert "Sonneborn-Berger" in page  # the round robin's tie-breaks, in order
    assert "Sign in</a> to enter" in page

    archived = client.get(f"/competitions/{past.id}/").content.decode()
    assert "Final standings (archived)" in archived
    assert "Archived games of the final" in archived
    assert "carol/cat" in archived
    bot_page = client.get(f"/bots/{bots[2].id}/").content.decode()
    assert "Autumn season" in bot_page and "1st" in bot_page

    entering = _signed_in(alice)
    form = entering.get(f"/competitions/{upcoming.id}/").content.decode()
    assert 'id="enter"' in form and ">ant<" in form
    done = entering.post(f"/competitions/{upcoming.id}/enter/", {"bot": bots[0].id})
    assert done.status_code == 302
    assert upcoming.entries.filter(bot=bots[0]).exists()
    refused = entering.post(f"/competitions/{upcoming.id}/enter/", {"bot": bots[1].id})
    assert refused.status_code == 200  # bee is not hers: not a choice of the form
    assert not upcoming.entries.filter(bot=bots[1]).exists()


def test_a_hostile_bot_name_is_escaped_on_the_competition_page(
    make_bot: MakeBot, alice: User, bob: User
) -> None:
    evil = make_bot(alice, '<img src=x onerror="alert(1)">')
    plain = make_bot(bob, "plain")
    competition = season(staff_user())
    enter(competition, [evil, plain])
    at(competition.opens + timedelta(seconds=1))
    climb(its_ladder(competition), [evil, plain], games=1)
    page = Client().get(f"/competitions/{competition.id}/").content.decode()
    assert "<img src=x" not in page
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in page


def test_an_owner_takes_a_bot_out_while_it_is_open_and_nobody_else_nor_after_the_freeze(
    bots: list[Bot], alice: User, bob: User, carol: User
) -> None:
    ant, bee, cat = bots
    competition = season(staff_user())
    enter(competition, bots)
    at(competition.opens)
    ladder = its_ladder(competition)
    climb(ladder, [cat, ant, bee], games=1)
    leave = f"/api/competitions/{competition.id}/entries/{ant.id}/"

    assert client_for(bob).delete(leave).status_code == 403  # not his bot
    assert APIClient().delete(leave).status_code == 401
    assert client_for(alice).delete(leave).status_code == 204
    assert not competition.entries.filter(bot=ant).exists()
    assert not ladder.ratings.filter(bot=ant).exists()  # off the board and matchmaking
    standings = client_for(alice).get(f"/api/competitions/{competition.id}/standings/").json()
    assert [row["bot_name"] for row in standings["rows"]] == ["cat", "bee"]
    assert client_for(alice).delete(leave).status_code == 404  # out already

    # The page's button: for the viewer's own entered bots; a POST of another's refused.
    page = _signed_in(carol).get(f"/competitions/{competition.id}/").content.decode()
    assert "Leave the competition" in page and f"/leave/{cat.id}/" in page
    assert f"/leave/{bee.id}/" not in page
    assert (
        _signed_in(carol).post(f"/competitions/{competition.id}/leave/{bee.id}/").status_code == 403
    )
    left = _signed_in(carol).post(f"/competitions/{competition.id}/leave/{cat.id}/")
    assert left.status_code == 302
    assert list(competition.entries.values_list("bot_id", flat=True)) == [bee.id]

    # From the freeze on, nobody leaves: bee stays, with its locked version.
    at(competition.freezes)
    late = client_for(bob).delete(f"/api/competitions/{competition.id}/entries/{bee.id}/")
    assert late.status_code == 400 and "frozen" in str(late.json()["detail"])
    bobs = _signed_in(bob)
    assert (
        "Leave the competition" not in bobs.get(f"/competitions/{competition.id}/").content.decode()
    )
    assert bobs.post(f"/competitions/{competition.id}/leave/{bee.id}/").status_code == 302
    assert competition.entries.exclude(version=None).filter(bot=bee).exists()
