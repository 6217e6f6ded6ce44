"""The public lists (matches, leaderboards) are kept in the cache for a moment; nothing
else is."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from pytest_django import Settings
from rest_framework.test import APIClient

from agon.api.caching import KEY_PREFIX
from agon.ladders.models import Ladder
from tests.platform.conftest import MakeBot
from tests.platform.support import play_ranked
from tests.platform.tournaments.support import open_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def lists_cached(settings: Settings) -> None:
    settings.AGON_LIST_CACHE_SECONDS = 2


def test_a_list_page_is_kept_for_a_moment_and_says_so(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    ant, bee = make_bot(alice, "ant"), make_bot(bob, "bee")
    first = anonymous.get("/api/matches/")
    play_ranked(ladder_2p, [ant, bee], scores=[2, 1])

    kept = anonymous.get("/api/matches/")
    cache.clear()  # as after AGON_LIST_CACHE_SECONDS
    fresh = anonymous.get("/api/matches/")

    assert first.status_code == kept.status_code == fresh.status_code == 200
    assert kept.json() == first.json()
    assert fresh.json()["count"] == first.json()["count"] + 1
    assert "max-age=2" in first["Cache-Control"]


def test_a_leaderboard_page_is_kept_for_a_moment(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    url = f"/api/ladders/{ladder_2p.id}/leaderboard/"
    ant, bee = make_bot(alice, "ant"), make_bot(bob, "bee")
    before = anonymous.get(url).json()
    play_ranked(ladder_2p, [ant, bee], scores=[2, 1])

    assert anonymous.get(url).json() == before
    cache.clear()
    assert anonymous.get(url).json() != before


def test_each_page_and_filter_is_kept_apart(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    ant, bee = make_bot(alice, "ant"), make_bot(bob, "bee")
    play_ranked(ladder_2p, [ant, bee], scores=[2, 1])

    everything = anonymous.get("/api/matches/").json()
    of_the_ladder = anonymous.get(f"/api/matches/?ladder={ladder_2p.id}").json()
    queued = anonymous.get("/api/matches/?status=queued").json()

    # Two validation matches and a ranked one; the ladder's is the ranked one.
    assert (everything["count"], of_the_ladder["count"], queued["count"]) == (3, 1, 0)


def test_the_browsable_page_and_the_json_are_kept_apart(anonymous: APIClient) -> None:
    json_page = anonymous.get("/api/matches/", HTTP_ACCEPT="application/json")
    html_page = anonymous.get("/api/matches/", HTTP_ACCEPT="text/html")

    assert json_page["Content-Type"] == "application/json"
    assert html_page["Content-Type"].startswith("text/html")
    assert anonymous.get("/api/matches/", HTTP_ACCEPT="application/json").json() == (
        json_page.json()
    )


def test_a_kept_page_is_found_under_its_key(anonymous: APIClient) -> None:
    anonymous.get("/api/matches/")

    assert [key for key in cache._cache if KEY_PREFIX in key]  # type: ignore[attr-defined]


def test_errors_and_single_matches_are_never_kept(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    assert anonymous.get("/api/ladders/999999/leaderboard/").status_code == 404
    assert anonymous.get("/api/matches/?status=nonsense").status_code == 400
    ant, bee = make_bot(alice, "ant"), make_bot(bob, "bee")
    match = play_ranked(ladder_2p, [ant, bee], scores=[2, 1])

    shown = anonymous.get(f"/api/matches/{match.id}/")

    assert "max-age" not in shown.get("Cache-Control", "")
    kept = [key for key in cache._cache if KEY_PREFIX in key]  # type: ignore[attr-defined]
    assert not kept


def test_it_is_off_when_set_to_zero(
    settings: Settings,
    anonymous: APIClient,
    ladder_2p: Ladder,
    make_bot: MakeBot,
    alice: User,
    bob: User,
) -> None:
    settings.AGON_LIST_CACHE_SECONDS = 0
    before = anonymous.get("/api/matches/").json()
    play_ranked(ladder_2p, [make_bot(alice, "ant"), make_bot(bob, "bee")], scores=[2, 1])

    assert anonymous.get("/api/matches/").json()["count"] == before["count"] + 3


def test_the_bots_ladders_and_tournaments_lists_are_kept_too_tournaments_for_anonymous_only(
    anonymous: APIClient, alice_client: APIClient, make_bot: MakeBot, alice: User
) -> None:
    before = {url: anonymous.get(url).json() for url in ("/api/bots/", "/api/ladders/")}
    tournaments = anonymous.get("/api/tournaments/").json()
    mine = alice_client.get("/api/tournaments/").json()
    make_bot(alice, "ant")
    open_tournament(User.objects.create_user("root", is_staff=True), public=True, name="open")

    assert {url: anonymous.get(url).json() for url in before} == before
    assert anonymous.get("/api/tournaments/").json() == tournaments
    assert alice_client.get("/api/tournaments/").json()["count"] == mine["count"] + 1
    cache.clear()
    assert anonymous.get("/api/bots/").json()["count"] == before["/api/bots/"]["count"] + 1
    assert anonymous.get("/api/tournaments/").json()["count"] == tournaments["count"] + 1
