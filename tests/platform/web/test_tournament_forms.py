"""Tournaments made and entered from the pages: the "New tournament" form of the list
(staff may make it public, others a private one within their quota) and a tournament's
entry form while its window is open, both through `agon.tournaments.services`, their
refusals shown on the form."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from agon.bots.models import Bot
from agon.bots.services import bot_open_to_events
from agon.tournaments.models import Entry, Tournament
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.tournaments.support import open_tournament

pytestmark = pytest.mark.django_db

HOSTILE = "<script>alert('pwned')</script>"


def signed_in(user: User, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    assert client.login(username=user.username, password=PASSWORD)
    return client


def new_tournament(**changes: object) -> dict[str, object]:
    closes = timezone.now() + timedelta(hours=2)
    return {
        "name": "the autumn cup",
        "game": "akropolis",
        "format": "round-robin",
        "players": 2,
        "meetings": 1,
        "max_entrants": 8,
        "entry_closes": closes.strftime("%Y-%m-%dT%H:%M"),
        **changes,
    }


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_user("stella", password=PASSWORD, is_staff=True)


def test_the_list_offers_the_form_to_users_and_asks_visitors_to_sign_in(
    client: Client, alice: User, staff: User
) -> None:
    anonymous = client.get("/tournaments/").content.decode()
    assert "Sign in</a> to make a tournament" in anonymous
    assert 'action="/tournaments/new/"' not in anonymous
    users = signed_in(alice).get("/tournaments/").content.decode()
    assert 'action="/tournaments/new/"' in users and 'name="public"' not in users
    assert 'name="public"' in signed_in(staff).get("/tournaments/").content.decode()


def test_a_user_makes_a_private_tournament_and_lands_on_its_page(alice: User) -> None:
    response = signed_in(alice).post("/tournaments/new/", new_tournament(public="on"))
    (tournament,) = Tournament.objects.all()
    assert response.status_code == 302
    assert response["Location"] == f"/tournaments/{tournament.id}/"
    assert (tournament.owner, tournament.public, tournament.format) == (
        alice,
        False,
        "round-robin",
    ), "a user's `public` is not a field of the form: it is private"


def test_staff_make_public_tournaments(staff: User) -> None:
    signed_in(staff).post("/tournaments/new/", new_tournament(public="on"))
    assert Tournament.objects.get().public


def test_signing_in_comes_first(client: Client) -> None:
    response = client.post("/tournaments/new/", new_tournament())
    assert response.status_code == 302 and "/signin/" in response["Location"]
    assert not Tournament.objects.exists()


def test_the_quota_refusal_is_shown_on_the_form(alice: User, settings: Settings) -> None:
    settings.AGON_PRIVATE_TOURNAMENTS_PER_USER = 1
    browser = signed_in(alice)
    browser.post("/tournaments/new/", new_tournament())
    response = browser.post("/tournaments/new/", new_tournament(name="a second one"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "The tournament was not made: you have 1 private tournaments not finished" in page
    assert 'value="a second one"' in page, "what was typed is kept"
    assert Tournament.objects.count() == 1


def test_field_errors_and_service_refusals_are_shown(alice: User) -> None:
    browser = signed_in(alice)
    past = (timezone.now() - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    page = browser.post("/tournaments/new/", new_tournament(entry_closes=past)).content.decode()
    assert "the entry must close in the future" in page
    page = browser.post("/tournaments/new/", new_tournament(players=9)).content.decode()
    assert "has-error" in page
    assert not Tournament.objects.exists()


def test_a_hostile_name_is_escaped(alice: User) -> None:
    browser = signed_in(alice)
    response = browser.post("/tournaments/new/", new_tournament(name=HOSTILE), follow=True)
    for page in (response.content.decode(), browser.get("/tournaments/").content.decode()):
        assert HOSTILE not in page
        assert "&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;" in page


def test_the_forms_need_their_csrf_token(alice: User, make_bot: MakeBot) -> None:
    browser = signed_in(alice, enforce_csrf_checks=True)
    assert browser.post("/tournaments/new/", new_tournament()).status_code == 403
    tournament = open_tournament(alice)
    bot = make_bot(alice, "ant")
    response = browser.post(f"/tournaments/{tournament.id}/enter/", {"bot": bot.id})
    assert response.status_code == 403
    assert not Tournament.objects.exclude(id=tournament.id).exists()
    assert not Entry.objects.exists()


@pytest.fixture
def public_cup(staff: User) -> Tournament:
    return open_tournament(staff, public=True)


def offered(page: str) -> str:
    return page[page.index('name="bot"') : page.index("</select>")]


def test_the_entry_form_offers_your_active_bots_of_the_game_only(
    alice: User, bob: User, make_bot: MakeBot, public_cup: Tournament
) -> None:
    make_bot(alice, "ant")
    make_bot(alice, "not-yet", active=False)
    make_bot(alice, "elsewhere", game="architekton")
    make_bot(bob, "bee")
    choices = offered(signed_in(alice).get(f"/tournaments/{public_cup.id}/").content.decode())
    assert ">ant<" in choices
    assert "not-yet" not in choices and "elsewhere" not in choices and "bee" not in choices


def test_a_user_enters_a_bot_into_a_public_tournament(
    alice: User, make_bot: MakeBot, public_cup: Tournament
) -> None:
    bot = make_bot(alice, "ant")
    browser = signed_in(alice)
    response = browser.post(f"/tournaments/{public_cup.id}/enter/", {"bot": bot.id})
    assert response.status_code == 302
    assert list(public_cup.entries.values_list("bot_id", flat=True)) == [bot.id]
    page = browser.get(response["Location"]).content.decode()
    assert "ant is entered." in page
    assert "no Akropolis bot with an active version left to enter" in page


def test_someone_else_s_bot_is_refused_in_a_public_tournament(
    alice: User, bob: User, make_bot: MakeBot, public_cup: Tournament
) -> None:
    theirs = make_bot(bob, "bee")
    make_bot(alice, "ant")
    response = signed_in(alice).post(f"/tournaments/{public_cup.id}/enter/", {"bot": theirs.id})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not public_cup.entries.exists()


def test_the_owner_of_a_private_tournament_enters_anyone_s_bots_open_to_events(
    alice: User, bob: User, make_bot: MakeBot
) -> None:
    private = open_tournament(alice)
    theirs: Bot = bot_open_to_events(bot=make_bot(bob, "hostile"), open_to_events=True)
    # A name taken before the naming rules, which refuse its / now (old rows stay).
    Bot.objects.filter(id=theirs.id).update(name=HOSTILE[:60])
    make_bot(bob, "closed")
    browser = signed_in(alice)
    page = browser.get(f"/tournaments/{private.id}/").content.decode()
    assert "bob/&lt;script&gt;" in offered(page) and HOSTILE not in page
    assert "bob/closed" not in offered(page), "not open to events: not offered"
    response = browser.post(f"/tournaments/{private.id}/enter/", {"bot": theirs.id})
    assert response.status_code == 302
    assert list(private.entries.values_list("bot_id", flat=True)) == [theirs.id]


def test_someone_else_s_private_tournament_is_not_there(
    alice: User, bob: User, make_bot: MakeBot
) -> None:
    private = open_tournament(alice)
    bot = make_bot(bob, "bee")
    browser = signed_in(bob)
    assert browser.get(f"/tournaments/{private.id}/").status_code == 404
    assert browser.post(f"/tournaments/{private.id}/enter/", {"bot": bot.id}).status_code == 404
    assert not private.entries.exists()


def test_no_entry_form_once_the_entry_closed(
    alice: User, make_bot: MakeBot, public_cup: Tournament
) -> None:
    bot = make_bot(alice, "ant")
    Tournament.objects.filter(id=public_cup.id).update(
        entry_closes=timezone.now() - timedelta(minutes=1)
    )
    browser = signed_in(alice)
    assert 'name="bot"' not in browser.get(f"/tournaments/{public_cup.id}/").content.decode()
    response = browser.post(f"/tournaments/{public_cup.id}/enter/", {"bot": bot.id})
    assert "The bot was not entered: the entry of this tournament is closed." in (
        response.content.decode()
    )
    assert not public_cup.entries.exists()


def test_the_form_sets_when_the_entry_opens(alice: User) -> None:
    opens = timezone.now().replace(second=0, microsecond=0) + timedelta(minutes=30)
    form = signed_in(alice).get("/tournaments/").content.decode()
    assert 'name="entry_opens"' in form
    data = new_tournament(entry_opens=opens.strftime("%Y-%m-%dT%H:%M"))
    assert signed_in(alice).post("/tournaments/new/", data).status_code == 302
    assert Tournament.objects.get().entry_opens == opens


def test_an_entry_that_opens_after_it_closes_is_refused_on_the_form(alice: User) -> None:
    late = (timezone.now() + timedelta(hours=3)).strftime("%Y-%m-%dT%H:%M")
    response = signed_in(alice).post("/tournaments/new/", new_tournament(entry_opens=late))
    assert response.status_code == 200
    assert "the entry must open before it closes" in response.content.decode()
    assert not Tournament.objects.exists()


def test_an_empty_opening_time_opens_the_entry_now(alice: User) -> None:
    before = timezone.now()
    signed_in(alice).post("/tournaments/new/", new_tournament(entry_opens=""))
    assert before <= Tournament.objects.get().entry_opens <= timezone.now()


def test_the_new_tournament_page_sends_visitors_to_sign_in_and_back(client: Client) -> None:
    response = client.get("/tournaments/new/")
    assert response.status_code == 302
    assert response["Location"] == "/signin/?next=/tournaments/new/"


def test_the_new_tournament_page_shows_the_form_closing_at_the_next_quarter_hour(
    alice: User,
) -> None:
    before = timezone.now()
    response = signed_in(alice).get("/tournaments/new/")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'action="/tournaments/new/"' in page and 'name="zone"' in page
    closes = response.context["form"].initial["entry_closes"]
    # A few minutes ahead at least, on a quarter hour, in at most twenty minutes.
    assert closes.minute % 15 == 0 and closes.second == 0 and closes.microsecond == 0
    assert before + timedelta(minutes=5) <= closes <= before + timedelta(minutes=20)


def test_entry_close_is_read_in_the_zone_the_browser_sends(alice: User) -> None:
    client = signed_in(alice)
    closes = (timezone.now() + timedelta(days=1)).replace(second=0, microsecond=0)
    tokyo = closes.astimezone(ZoneInfo("Asia/Tokyo"))
    local = tokyo.strftime("%Y-%m-%dT%H:%M")
    response = client.post(
        "/tournaments/new/", new_tournament(entry_closes=local, zone="Asia/Tokyo")
    )
    assert response.status_code == 302
    assert Tournament.objects.get().entry_closes == closes


def test_an_unknown_zone_is_refused_on_the_form(alice: User) -> None:
    response = signed_in(alice).post("/tournaments/new/", new_tournament(zone="Mars/Olympus_Mons"))
    assert response.status_code == 200
    assert "Unknown time zone" in response.content.decode()
    assert not Tournament.objects.exists()


def test_no_page_form_answers_a_blank_405_to_a_get(alice: User, make_bot: MakeBot) -> None:
    """A form's address opened in the browser (a bookmark, a reload after a refusal, a
    link shared) leads to the page that holds the form."""
    bot = make_bot(alice, "ant")
    tournament = open_tournament(alice, name="practice")
    client = signed_in(alice)
    pages = {
        f"/my/bots/{bot.id}/tests/": f"/my/bots/{bot.id}/",
        f"/my/bots/{bot.id}/resume/": f"/my/bots/{bot.id}/",
        f"/my/bots/{bot.id}/events/": f"/my/bots/{bot.id}/",
        "/ladders/1/challenge/": "/ladders/1/",
        f"/tournaments/{tournament.id}/enter/": f"/tournaments/{tournament.id}/",
        f"/tournaments/{tournament.id}/entries/1/withdraw/": f"/tournaments/{tournament.id}/",
        f"/tournaments/{tournament.id}/cancel/": f"/tournaments/{tournament.id}/",
    }
    for form, page in pages.items():
        response = client.get(form)
        assert (response.status_code, response.get("Location")) == (302, page), form
