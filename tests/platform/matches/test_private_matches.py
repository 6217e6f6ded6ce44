"""A private event's games are seen only by its audience (`agon.matches.visibility`): a
private tournament's by its owner, staff and the owners of the bots entered in it; a
version test's by its bot's owner and staff. Everywhere: the API's lists, details,
replays, timelines and logs, the match list and pages, a bot's page, its record and head
to head. Nobody else is told they exist.

Run on PostgreSQL here and on SQLite by tests/platform/test_private_events_on_sqlite.py."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from agon.bots.models import Bot
from agon.bots.services import bot_open_to_events
from agon.matches.models import Match
from agon.tournaments.scheduling import tournament_close_entry
from agon.version_testing.models import VersionTest
from agon.version_testing.services import Baseline, version_test_create
from agon.web.selectors import bot_record
from tests.platform.conftest import PASSWORD, MakeBot, client_for
from tests.platform.support import finish_match
from tests.platform.tournaments.support import after_entry, enter, games_in_play, open_tournament
from tests.platform.version_testing.support import bot_with_two_versions, queued_games

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_user("root", password=PASSWORD, is_staff=True)


@dataclass
class PrivateCup:
    ant: Bot
    """Alice's bot, entered by alice in her private tournament."""
    bee: Bot
    """Bob's bot, open to events, entered by alice."""
    played: Match
    """A finished game of the tournament between them."""
    queued: Match
    """One still queued."""


@pytest.fixture
def private_cup(make_bot: MakeBot, alice: User, bob: User) -> PrivateCup:
    ant = make_bot(alice, "ant")
    bee = bot_open_to_events(bot=make_bot(bob, "bee"), open_to_events=True)
    tournament = open_tournament(alice, format="round-robin", meetings=2)
    enter(tournament, [ant, bee], alice)
    tournament_close_entry(tournament_id=tournament.id, now=after_entry(tournament))
    first, second, *_ = [game.match for game in games_in_play(tournament) if game.match]
    assert first is not None and second is not None
    return PrivateCup(ant, bee, finish_match(first, scores=[30, 10]), second)


def match_ids(client: APIClient, query: str = "") -> set[int]:
    response = client.get(f"/api/matches/{query}")
    assert response.status_code == 200
    return {match["id"] for match in response.json()["results"]}


def test_its_matches_are_made_private(private_cup: PrivateCup) -> None:
    assert private_cup.played.private and private_cup.queued.private


def test_nobody_outside_sees_a_private_tournaments_games_in_the_api(
    private_cup: PrivateCup, anonymous: APIClient, carol: User
) -> None:
    played, queued = private_cup.played.id, private_cup.queued.id
    for client in (anonymous, client_for(carol)):
        assert not {played, queued} & match_ids(client)
        assert not {played, queued} & match_ids(client, f"?bot={private_cup.bee.id}")
        for path in ("", "replay/", "timeline/", "timeline/?seat=0"):
            assert client.get(f"/api/matches/{played}/{path}").status_code == 404, path
        assert client.get(f"/api/matches/{queued}/timeline/").status_code == 404
    assert client_for(carol).get(f"/api/matches/{played}/logs/0/").status_code == 404


def test_its_owner_the_entered_bots_owners_and_staff_see_its_games(
    private_cup: PrivateCup, alice: User, bob: User, staff: User
) -> None:
    played, queued = private_cup.played.id, private_cup.queued.id
    for user in (alice, bob, staff):
        client = client_for(user)
        assert {played, queued} <= match_ids(client), user.username
        assert {played, queued} <= match_ids(client, f"?bot={private_cup.bee.id}")
        assert client.get(f"/api/matches/{played}/").status_code == 200
        assert client.get(f"/api/matches/{played}/replay/").status_code == 200
        assert client.get(f"/api/matches/{queued}/timeline/").status_code == 200


def test_a_private_match_list_asked_anonymously_is_not_served_to_its_audience_from_the_cache(
    private_cup: PrivateCup, anonymous: APIClient, bob: User, settings: object
) -> None:
    settings.AGON_LIST_CACHE_SECONDS = 60  # type: ignore[attr-defined]
    query = f"?bot={private_cup.bee.id}"
    assert private_cup.played.id not in match_ids(anonymous, query)
    assert private_cup.played.id in match_ids(client_for(bob), query)
    assert private_cup.played.id not in match_ids(anonymous, query)


def test_the_pages_show_a_private_tournaments_games_to_its_audience_only(
    private_cup: PrivateCup, client: Client, bob: User, carol: User
) -> None:
    played = private_cup.played.id
    link = f'href="{reverse("web:match", args=[played])}"'
    bot_page = reverse("web:bot", args=[private_cup.bee.id])
    match_list = reverse("web:matches") + f"?bot={private_cup.bee.id}&status=any"
    for outsider in (None, carol):
        if outsider is not None:
            client.force_login(outsider)
        assert client.get(reverse("web:match", args=[played])).status_code == 404
        assert link not in client.get(match_list).content.decode()
        assert link not in client.get(bot_page).content.decode()
    client.force_login(bob)
    assert client.get(reverse("web:match", args=[played])).status_code == 200
    assert link in client.get(match_list).content.decode()
    assert link in client.get(reverse("web:my-bot", args=[private_cup.bee.id])).content.decode()


def test_a_private_tournaments_games_count_in_no_public_record(
    private_cup: PrivateCup, anonymous: APIClient
) -> None:
    assert bot_record(bot=private_cup.bee).played == 1, "its validation match alone"
    head_to_head = anonymous.get(f"/api/bots/{private_cup.bee.id}/head-to-head/").json()
    assert head_to_head["count"] == 0


@pytest.fixture
def version_test(make_bot: MakeBot, alice: User, bob: User) -> VersionTest:
    """Alice tests her bot against bob's public bot: its games are alice's business only."""
    hero = bot_with_two_versions(make_bot, alice)
    rival = make_bot(bob, "rival")
    rival.open_to_events = True  # bob lets other users measure against it
    rival.save(update_fields=["open_to_events"])
    return version_test_create(
        user=alice, bot=hero, candidate=2, baseline=Baseline(bot=rival.id), max_games=4
    )


def test_a_version_tests_games_are_seen_by_its_bots_owner_and_staff_only(
    version_test: VersionTest,
    anonymous: APIClient,
    alice: User,
    bob: User,
    staff: User,
) -> None:
    game, *_ = queued_games(version_test)
    assert game.private
    finish_match(game, scores=[30, 10])
    for user in (alice, staff):
        client = client_for(user)
        assert game.id in match_ids(client)
        assert client.get(f"/api/matches/{game.id}/").status_code == 200
    for client in (anonymous, client_for(bob)):  # bob's bot was the baseline
        assert game.id not in match_ids(client)
        assert client.get(f"/api/matches/{game.id}/").status_code == 404
        assert client.get(f"/api/matches/{game.id}/replay/").status_code == 404


def test_a_version_test_itself_is_its_bots_owners_business(
    version_test: VersionTest, anonymous: APIClient, alice: User, bob: User, client: Client
) -> None:
    bot_id, test_id = version_test.bot_id, version_test.id
    owner = client_for(alice)
    assert owner.get(f"/api/bots/{bot_id}/tests/{test_id}/").status_code == 200
    assert owner.get(f"/api/bots/{bot_id}/tests/").json()["count"] == 1
    for other in (anonymous, client_for(bob)):
        assert other.get(f"/api/bots/{bot_id}/tests/{test_id}/").status_code == 404
        assert other.get(f"/api/bots/{bot_id}/tests/").json()["count"] == 0
    page = reverse("web:version-test", args=[bot_id, test_id])
    assert client.get(page).status_code == 404
    assert f'href="{page}"' not in client.get(reverse("web:bot", args=[bot_id])).content.decode()
    client.force_login(alice)
    assert client.get(page).status_code == 200
