"""The tournament pages: the list (public ones, and one's own private ones), each
tournament with its standings and tie-breaks, cross-table or bracket, its games linked to
their matches, and how far it has come; a private one is not there for strangers."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from agon.bots.models import Bot
from agon.tournaments.models import Tournament, TournamentGame
from agon.tournaments.scheduling import tournaments_advance
from tests.platform.conftest import PASSWORD, MakeBot
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

HOSTILE = "<script>alert('pwned')</script>"


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_user("stella", password=PASSWORD, is_staff=True)


def signed_in(user: User) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def started(owner: User, bots: list, **settings: object) -> Tournament:  # type: ignore[type-arg]
    tournament = open_tournament(owner, **settings)
    enter(tournament, bots, owner)
    assert tournaments_advance(now=after_entry(tournament)) == [tournament.id]
    tournament.refresh_from_db()
    return tournament


def page_of(client: Client, tournament: Tournament, query: str = "") -> str:
    response = client.get(f"/tournaments/{tournament.id}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def live_of(html: str) -> str:
    """The page's live part (the forms around it have a fresh CSRF token each time)."""
    return html[html.index('<div id="tournament-live"') : html.index("</main>")]


def test_the_list_shows_public_tournaments_and_only_ones_own_private_ones(
    staff: User, alice: User, bob: User
) -> None:
    open_tournament(staff, name="the open cup", public=True)
    open_tournament(alice, name="alice's practice")
    open_tournament(bob, name="bob's secret")
    anonymous = Client().get("/tournaments/").content.decode()
    assert "the open cup" in anonymous
    assert "practice" not in anonymous and "secret" not in anonymous
    alices = signed_in(alice).get("/tournaments/").content.decode()
    assert "the open cup" in alices and "alice&#x27;s practice" in alices
    assert "secret" not in alices


def test_a_private_tournament_is_not_found_but_by_its_owner_and_staff(
    staff: User, alice: User, bob: User
) -> None:
    private = open_tournament(alice, name="alice's practice")
    url = f"/tournaments/{private.id}/"
    assert Client().get(url).status_code == 404
    assert signed_in(bob).get(url).status_code == 404
    assert signed_in(alice).get(url).status_code == 200
    assert signed_in(staff).get(url).status_code == 200
    assert Client().get("/tournaments/999999/").status_code == 404


def test_an_open_tournament_lists_the_bots_entered(make_bot: MakeBot, alice: User) -> None:
    tournament = open_tournament(alice)
    enter(tournament, [make_bot(alice, "athena"), make_bot(alice, "hermes")])
    html = page_of(signed_in(alice), tournament)
    assert "Entered bots" in html
    assert "alice/athena" in html and "alice/hermes" in html
    assert "2 bots entered so far" in html


def test_a_round_robin_has_standings_with_tiebreaks_a_cross_table_and_its_games_linked(
    make_bot: MakeBot, alice: User
) -> None:
    bots = [make_bot(alice, f"bot{i}") for i in range(4)]
    tournament = started(alice, bots, format="round-robin")
    play_out(tournament)
    html = page_of(signed_in(alice), tournament)
    assert "Standings" in html and "Cross-table" in html
    assert '<abbr title="Sonneborn-Berger' in html and ">SB</abbr>" in html
    matches = TournamentGame.objects.filter(tournament=tournament).values_list(
        "match_id", flat=True
    )
    assert len(matches) == 6 * 2  # six pairs of bots, a meeting of two games each
    rounds = sorted(
        set(TournamentGame.objects.filter(tournament=tournament).values_list("round", flat=True))
    )
    assert all(f'<a href="?round={number}"' in html for number in rounds)
    shown = "".join(page_of(signed_in(alice), tournament, f"?round={number}") for number in rounds)
    for match_id in matches:
        assert f'href="/matches/{match_id}/"' in shown
    assert "12 of 12 games decided" in html
    rows = re.findall(r'<th scope="row" class="bot-name"><a href="/bots/(\d+)/">', html)
    standings = Tournament.objects.get(id=tournament.id).standings
    assert [int(bot) for bot in rows] == [row["bot"] for row in standings]


def test_a_running_swiss_says_how_far_it_has_come(make_bot: MakeBot, alice: User) -> None:
    bots = [make_bot(alice, f"bot{i}") for i in range(4)]
    tournament = started(alice, bots, rounds=2)
    html = page_of(signed_in(alice), tournament)
    assert "0 of 8 games decided" in html and "4 waiting for a worker" in html
    assert 'data-status="running"' in html
    assert ">BH-C1</abbr>" in html and "Cross-table" not in html
    first = games_in_play(tournament)[0]
    assert first.match is not None
    finish_match(first.match, scores=lower_seat_wins(first.match))
    html = page_of(signed_in(alice), tournament)
    assert "1 of 8 games decided" in html and "3 waiting for a worker" in html


def test_a_knockout_draws_its_bracket_from_the_first_round_to_the_final(
    make_bot: MakeBot, alice: User
) -> None:
    bots = [make_bot(alice, f"bot{i}") for i in range(5)]
    tournament = started(alice, bots, format="knockout")
    html = page_of(signed_in(alice), tournament)
    assert '<svg class="bracket"' in html
    assert ">Quarter-finals</text>" in html and ">Final</text>" in html
    assert "to be decided" in html and "0 of 4 ties decided" in html
    play_out(tournament)
    html = page_of(signed_in(alice), tournament)
    assert "4 of 4 ties decided" in html and "to be decided" not in html
    games = TournamentGame.objects.filter(tournament=tournament)
    for number, tie in games.values_list("round", "tie"):
        assert f'<a href="?round={number}#tie-{tie}">' in html
        assert f'id="tie-{tie}"' in page_of(signed_in(alice), tournament, f"?round={number}")


def test_double_elimination_draws_both_brackets(make_bot: MakeBot, alice: User) -> None:
    bots = [make_bot(alice, f"bot{i}") for i in range(4)]
    tournament = started(alice, bots, format="double-elimination")
    play_out(tournament)
    html = page_of(signed_in(alice), tournament)
    assert "Winners&#x27; bracket" in html and "Losers&#x27; bracket" in html
    assert "Grand final" in html


def test_a_gauntlet_shows_the_first_entrants_elo_against_each_opponent(
    make_bot: MakeBot, alice: User
) -> None:
    bots = [make_bot(alice, f"bot{i}") for i in range(3)]
    tournament = started(alice, bots, format="gauntlet")
    play_out(tournament)
    html = page_of(signed_in(alice), tournament)
    assert "Elo of alice/bot" in html and "the field" in html
    assert "Against alice/bot" in html


def test_hostile_bot_and_tournament_names_are_shown_as_text(make_bot: MakeBot, alice: User) -> None:
    bots = [make_bot(alice, "hostile"), make_bot(alice, "x" * 64), make_bot(alice, "c")]
    # A name taken before the naming rules, which refuse its / now (old rows stay).
    Bot.objects.filter(id=bots[0].id).update(name=HOSTILE)
    bots[0].refresh_from_db()
    tournament = started(alice, bots, format="knockout", name="<img src=x onerror=alert(1)>")
    for format_page in (page_of(signed_in(alice), tournament),):
        assert "<script>alert" not in format_page and "<img src=x" not in format_page
        assert "&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;" in format_page
        assert "&lt;img src=x onerror=alert(1)&gt;" in format_page
    listing = signed_in(alice).get("/tournaments/").content.decode()
    assert "<img src=x" not in listing and "&lt;img src=x onerror=alert(1)&gt;" in listing


def test_the_nav_and_the_home_page_lead_to_the_tournaments() -> None:
    home = Client().get("/").content.decode()
    assert home.count('href="/tournaments/"') >= 2


def test_a_tournament_page_reads_in_as_many_queries_whatever_its_size(
    make_bot: MakeBot, alice: User
) -> None:
    client = signed_in(alice)
    counted = []
    for entrants in (3, 6):
        bots = [make_bot(alice, f"b{entrants}-{i}") for i in range(entrants)]
        tournament = started(alice, bots, format="round-robin", name=f"of {entrants}")
        play_out(tournament)
        with CaptureQueriesContext(connection) as queries:
            page_of(client, tournament)
        counted.append(len(queries))
    assert counted[0] == counted[1] <= 12


def test_the_live_part_is_rendered_once_per_state_of_the_tournament(
    make_bot: MakeBot, alice: User
) -> None:
    tournament = started(alice, [make_bot(alice, f"bot{i}") for i in range(4)], rounds=2)
    client = signed_in(alice)
    with CaptureQueriesContext(connection) as first:
        before = live_of(page_of(client, tournament))
    with CaptureQueriesContext(connection) as again:
        assert live_of(page_of(client, tournament)) == before
    # Not read again: the entrants, the results, the matches in play, the round's games
    # and their earlier attempts.
    assert len(again) == len(first) - 5
    game = games_in_play(tournament)[0]
    assert game.match is not None
    finish_match(game.match, scores=lower_seat_wins(game.match))
    assert "1 of 8 games decided" in page_of(client, tournament)


def test_a_bye_is_marked_as_one(make_bot: MakeBot, alice: User) -> None:
    tournament = started(alice, [make_bot(alice, f"bot{i}") for i in range(3)], rounds=1)
    html = page_of(signed_in(alice), tournament)
    assert html.count('<span class="badge">bye</span>') == 1
