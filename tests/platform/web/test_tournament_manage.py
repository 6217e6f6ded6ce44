"""Managing a tournament from its page: withdrawing one's entries while the entry is
open, cancelling a tournament (its owner if private, staff), the earlier attempts of a
replayed game, and a big tournament's page listing one round's games at a time."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import Settings

from agon.tournaments.models import Entry, Tournament
from agon.tournaments.scheduling import tournament_close_entry, tournaments_advance
from agon.web import tournament_pages
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.tournaments.support import (
    after_entry,
    enter,
    games_in_play,
    open_tournament,
    play_out,
)
from tests.platform.tournaments.test_failures import fail

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_user("stella", password=PASSWORD, is_staff=True)


def signed_in(user: User, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    assert client.login(username=user.username, password=PASSWORD)
    return client


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


def test_a_user_withdraws_their_entry_with_a_button(
    make_bot: MakeBot, staff: User, alice: User, bob: User
) -> None:
    cup = open_tournament(staff, public=True)
    enter(cup, [make_bot(alice, "ant"), make_bot(bob, "bee")])
    ant = Entry.objects.get(bot__name="ant")
    url = f"/tournaments/{cup.id}/entries/{ant.id}/withdraw/"
    alices = signed_in(alice, enforce_csrf_checks=True)
    page = alices.get(f"/tournaments/{cup.id}/").content.decode()
    assert f'action="{url}"' in page and "Withdraw ant" in page and "Withdraw bee" not in page
    assert f'action="{url}"' not in signed_in(bob).get(f"/tournaments/{cup.id}/").content.decode()

    assert alices.post(url).status_code == 403  # no CSRF token
    assert signed_in(bob).post(url).status_code == 403  # not bob's
    done = alices.post(url, {"csrfmiddlewaretoken": csrf_of(page)}, follow=True)
    assert "ant is withdrawn." in done.content.decode()
    again = alices.post(url, {"csrfmiddlewaretoken": csrf_of(page)}, follow=True)
    assert "withdrawn already" in again.content.decode()
    assert list(cup.entries.values_list("bot__name", flat=True)) == ["bee"]


def test_the_owner_cancels_a_running_tournament_from_its_page(
    make_bot: MakeBot, alice: User, bob: User
) -> None:
    tournament = open_tournament(alice, format="round-robin")
    enter(tournament, [make_bot(alice, f"bot{i}") for i in range(3)])
    tournaments_advance(now=after_entry(tournament))
    url = f"/tournaments/{tournament.id}/cancel/"
    owner = signed_in(alice, enforce_csrf_checks=True)
    page = owner.get(f"/tournaments/{tournament.id}/").content.decode()
    assert f'action="{url}"' in page

    assert signed_in(bob).post(url).status_code == 404  # a private tournament is alice's
    assert owner.post(url).status_code == 403  # no CSRF token
    token = {"csrfmiddlewaretoken": csrf_of(page)}
    cancelled = owner.post(url, token, follow=True).content.decode()
    assert "The tournament is cancelled" in cancelled
    assert 'data-status="cancelled"' in cancelled and "cancelled by alice" in cancelled
    assert f'action="{url}"' not in cancelled  # nothing left to cancel
    again = owner.post(url, token, follow=True)
    assert again.status_code == 200
    assert Tournament.objects.get(id=tournament.id).status == Tournament.Status.CANCELLED


def test_a_public_tournament_is_cancelled_by_staff_only(
    make_bot: MakeBot, staff: User, alice: User
) -> None:
    cup = open_tournament(staff, public=True)
    url = f"/tournaments/{cup.id}/cancel/"
    assert f'action="{url}"' not in signed_in(alice).get(f"/tournaments/{cup.id}/").content.decode()
    assert signed_in(alice).post(url).status_code == 403
    assert signed_in(staff).post(url).status_code == 302
    assert Tournament.objects.get(id=cup.id).status == Tournament.Status.CANCELLED


def test_a_replayed_game_lists_its_earlier_attempts(make_bot: MakeBot, alice: User) -> None:
    tournament = open_tournament(alice, format="gauntlet")
    enter(tournament, [make_bot(alice, "one"), make_bot(alice, "two")])
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    game = games_in_play(tournament)[0]
    assert game.match is not None
    failed = game.match.id
    fail(game.match)
    html = signed_in(alice).get(f"/tournaments/{tournament.id}/").content.decode()
    assert f'earlier attempts: <a href="/matches/{failed}/">#{failed}</a> (failed)' in html


def test_a_rounds_tables_are_paged(
    make_bot: MakeBot, alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tournament_pages, "TIES_PER_PAGE", 2)
    tournament = open_tournament(alice, rounds=1)
    enter(tournament, [make_bot(alice, f"bot{i}") for i in range(6)])  # 3 tables
    tournaments_advance(now=after_entry(tournament))
    client = signed_in(alice)
    first = client.get(f"/tournaments/{tournament.id}/").content.decode()
    assert first.count('class="tie-block"') == 2 and "tables page 1 of 2" in first
    assert 'href="?round=1&amp;page=2"' in first
    second = client.get(f"/tournaments/{tournament.id}/?round=1&page=2").content.decode()
    assert second.count('class="tie-block"') == 1 and "tables page 2 of 2" in second
    assert f'data-page-url="/tournaments/{tournament.id}/?round=1&amp;page=2"' in second


def test_a_big_tournaments_page_lists_one_round_in_as_many_queries(
    make_bot: MakeBot, alice: User, settings: Settings
) -> None:
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    client = signed_in(alice)
    counted, listed = [], []
    for entrants in (4, 10):
        tournament = open_tournament(alice, format="round-robin", name=f"of {entrants}")
        enter(tournament, [make_bot(alice, f"b{entrants}-{i}") for i in range(entrants)])
        tournaments_advance(now=after_entry(tournament))
        play_out(tournament)
        with CaptureQueriesContext(connection) as queries:
            html = client.get(f"/tournaments/{tournament.id}/").content.decode()
        counted.append(len(queries))
        listed.append(len(re.findall(r'href="/matches/\d+/"', html)))
    assert counted[0] == counted[1]
    # One round of the 45 pairs of the big one: 5 tables of 2 games, not 90 games.
    assert listed == [2 * 2, 5 * 2]


def test_a_tournament_cancelled_during_its_entry_still_lists_its_bots(
    make_bot: MakeBot, alice: User
) -> None:
    tournament = open_tournament(alice)
    enter(tournament, [make_bot(alice, "ant")])
    signed_in(alice).post(f"/tournaments/{tournament.id}/cancel/")
    html = signed_in(alice).get(f"/tournaments/{tournament.id}/").content.decode()
    assert "alice/ant</a>" in html and "No bot has entered yet" not in html
    assert "· cancelled <time" in html and "Withdraw ant" not in html
