"""A tournament's detail and games asked for anonymously are kept for a moment before
DRF is reached, as the public lists are: anonymous requests see public tournaments only,
all the same. Nothing a signed-in user is shown is ever served from there. Long pages are
kept gzipped, and sent so to clients that accept it."""

from __future__ import annotations

import gzip
import json

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from pytest_django import Settings
from rest_framework.test import APIClient

from agon.api import caching
from agon.api.caching import KEY_PREFIX
from agon.tournaments.models import Tournament
from agon.tournaments.scheduling import tournament_close_entry
from tests.platform.conftest import MakeBot
from tests.platform.support import finish_match
from tests.platform.tournaments.support import after_entry, enter, games_in_play, open_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def lists_cached(settings: Settings) -> None:
    settings.AGON_LIST_CACHE_SECONDS = 2


def running(make_bot: MakeBot, owner: User, *, public: bool) -> Tournament:
    creator = User.objects.create_user("root", is_staff=True) if public else owner
    tournament = open_tournament(creator, rounds=2, public=public)
    enter(tournament, [make_bot(owner, name) for name in ("ant", "bee", "cat", "dog")], owner)
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    tournament.refresh_from_db()
    return tournament


def kept_pages() -> list[str]:
    return [key for key in cache._cache if KEY_PREFIX in key]  # type: ignore[attr-defined]


def test_a_public_tournament_is_kept_for_a_moment_for_anonymous_requests_only(
    anonymous: APIClient, alice: User, alice_client: APIClient, make_bot: MakeBot
) -> None:
    tournament = running(make_bot, alice, public=True)
    detail = f"/api/tournaments/{tournament.id}/"
    games = f"/api/tournaments/{tournament.id}/games/"
    before = anonymous.get(detail)
    games_before = anonymous.get(games).json()
    game = games_in_play(tournament)[0]
    assert game.match is not None
    finish_match(game.match, scores=[3, 1])

    assert before.status_code == 200 and "max-age=2" in before["Cache-Control"]
    assert anonymous.get(detail).json() == before.json()  # kept
    assert anonymous.get(games).json() == games_before
    signed_in = alice_client.get(detail)
    assert signed_in.json()["progress"]["decided"] == 1  # at once, and never kept
    assert "max-age" not in signed_in.get("Cache-Control", "")
    cache.clear()  # as after AGON_LIST_CACHE_SECONDS
    assert anonymous.get(detail).json()["progress"]["decided"] == 1
    shown = {row["match"]: row["status"] for row in anonymous.get(games).json()["results"]}
    assert shown[game.match.id] == "finished"


def test_a_private_tournament_seen_by_its_owner_stays_hidden_from_anonymous_requests(
    anonymous: APIClient, alice: User, alice_client: APIClient, make_bot: MakeBot
) -> None:
    tournament = running(make_bot, alice, public=False)
    for url in (f"/api/tournaments/{tournament.id}/", f"/api/tournaments/{tournament.id}/games/"):
        assert alice_client.get(url).status_code == 200
        assert kept_pages() == []  # the owner's page is not kept where others look
        assert anonymous.get(url).status_code == 404
    assert kept_pages() == []  # nor is a 404


def test_each_host_is_kept_apart_as_the_links_name_it(
    anonymous: APIClient, alice: User, make_bot: MakeBot, settings: Settings
) -> None:
    settings.ALLOWED_HOSTS = ["one.example", "two.example"]
    tournament = running(make_bot, alice, public=True)
    url = f"/api/tournaments/{tournament.id}/"

    one = anonymous.get(url, HTTP_HOST="one.example").json()["games"]
    two = anonymous.get(url, HTTP_HOST="two.example").json()["games"]

    assert one.startswith("http://one.example/") and two.startswith("http://two.example/")


def test_a_long_kept_page_goes_gzipped_to_who_accepts_it_and_plain_to_others(
    anonymous: APIClient, alice: User, make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(caching, "GZIP_MIN_BYTES", 1024)  # a detail of four entrants is long
    tournament = running(make_bot, alice, public=True)
    url = f"/api/tournaments/{tournament.id}/"

    made = anonymous.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")  # computed
    kept = anonymous.get(url, HTTP_ACCEPT_ENCODING="gzip")  # from the cache
    plain = anonymous.get(url)
    short = anonymous.get("/api/tournaments/", HTTP_ACCEPT_ENCODING="gzip")

    assert len(plain.content) >= caching.GZIP_MIN_BYTES > len(short.content)
    for response in (made, kept):
        assert response["Content-Encoding"] == "gzip"
        assert json.loads(gzip.decompress(response.content)) == plain.json()
        assert len(response.content) < len(plain.content) / 2
    assert "Content-Encoding" not in plain and "Content-Encoding" not in short
    for response in (made, kept, plain, short):
        assert "Accept-Encoding" in response["Vary"]
    cache.clear()
    fresh = anonymous.get(url)  # computed for a client that takes it plain
    assert "Content-Encoding" not in fresh and fresh.json() == plain.json()
    assert anonymous.get(url, HTTP_ACCEPT_ENCODING="gzip")["Content-Encoding"] == "gzip"
