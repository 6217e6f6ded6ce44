"""Who may do what, endpoint by endpoint: an anonymous visitor, another signed-in user,
and the owner of the bot concerned.

Reading is public (bots, ladders, matches, replays); uploading needs an account; only a
bot's owner uploads its versions, tests them (and sees its tests), downloads its code,
opens it to other users' events and reads its logs; its owner (or staff) renames, retires
and deletes it. A version of somebody else's bot is
not found rather than forbidden, so its existence stays private, and so is a version
test and a private tournament for all but who may see them. A user's notifications,
settings and webhooks are their own: another user has none of the owner's to find.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from agon.bots.models import Bot
from agon.bots.services import bot_open_to_events
from agon.competitions.models import Competition
from agon.competitions.services import competition_enter
from agon.ladders.models import Ladder
from agon.matches.models import Match
from agon.matches.services import match_create
from agon.notifications.kinds import CHANNELS, KINDS
from agon.notifications.models import Webhook
from agon.notifications.services import webhook_create
from agon.tournaments.models import Entry, Tournament
from agon.tournaments.services import entry_create
from agon.version_testing.models import VersionTest
from agon.version_testing.services import Baseline, version_test_create
from tests.platform.competitions.support import season, staff_user
from tests.platform.conftest import PASSWORD, MakeBot, client_for
from tests.platform.support import finish_match, latest_version, py_upload
from tests.platform.tournaments.support import open_tournament

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class World:
    """Alice owns `ant` and `ant2`; Bob owns `bee`. `match` is a finished ranked match,
    ant (seat 0) against bee (seat 1), with logs; `tournament` is Alice's private one,
    open for entries, with ant entered (`entry`)."""

    alice: User
    bob: User
    ant: Bot
    ant2: Bot
    bee: Bot
    ladder: Ladder
    match: Match
    test: VersionTest
    """A version test of ant against builtin:greedy."""
    tournament: Tournament
    entry: Entry
    """ant's entry in `tournament`."""
    competition: Competition
    """Staff's, upcoming (it takes entries), with ant2 entered."""
    webhook: Webhook
    """Alice's."""


@pytest.fixture
def world(make_bot: MakeBot, alice: User, bob: User, ladder_2p: Ladder) -> World:
    ant, ant2, bee = make_bot(alice, "ant"), make_bot(alice, "ant2"), make_bot(bob, "bee")
    bot_open_to_events(bot=bee, open_to_events=True)  # alice may enter it
    match = match_create(
        kind=Match.Kind.RANKED,
        ladder=ladder_2p,
        game="akropolis",
        players=2,
        options={},
        seats=[latest_version(ant), latest_version(bee)],
    )
    finish_match(match, scores=[1, 2], logs={0: "ant log", 1: "bee log"})
    test = version_test_create(
        user=alice, bot=ant, candidate=1, baseline=Baseline(builtin="greedy"), max_games=10
    )
    tournament = open_tournament(alice)
    entry = entry_create(user=alice, tournament_id=tournament.id, bot_id=ant.id)
    competition = season(staff_user())
    competition_enter(user=alice, competition_id=competition.id, bot_id=ant2.id)
    webhook = webhook_create(user=alice, url="https://hooks.example.org/agon", style="generic")
    return World(
        alice, bob, ant, ant2, bee, ladder_2p, match, test, tournament, entry, competition, webhook
    )


@dataclass(frozen=True)
class Endpoint:
    method: str
    url: Callable[[World], str]
    data: Callable[[World], dict[str, Any]] = lambda world: {}
    format: str | None = None
    """`json` for JSON bodies; None for multipart forms (uploads)."""


ENDPOINTS: dict[str, tuple[Endpoint, dict[str, int]]] = {
    "sign up": (
        Endpoint(
            "post",
            lambda w: "/api/auth/register/",
            lambda w: {"username": "newcomer", "password": PASSWORD},
            "json",
        ),
        {"anonymous": 201, "other": 201, "owner": 201},
    ),
    "get a token": (
        Endpoint(
            "post",
            lambda w: "/api/auth/token/",
            lambda w: {"username": "alice", "password": PASSWORD},
            "json",
        ),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "who is signed in": (
        Endpoint("get", lambda w: "/api/auth/me/"),
        {"anonymous": 401, "other": 200, "owner": 200},
    ),
    "the API's root": (
        Endpoint("get", lambda w: "/api/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "list games": (
        Endpoint("get", lambda w: "/api/games/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "a game's dataset": (
        Endpoint("get", lambda w: "/api/games/akropolis/datasets/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "a game's statistics": (
        Endpoint("get", lambda w: "/api/games/akropolis/stats/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "the statistics of a game that is not there": (
        Endpoint("get", lambda w: "/api/games/chess/stats/"),
        {"anonymous": 404, "other": 404, "owner": 404},
    ),
    "a part of a game's dataset that is not there": (
        Endpoint("get", lambda w: "/api/games/akropolis/datasets/files/part-000001-00.parquet"),
        {"anonymous": 404, "other": 404, "owner": 404},
    ),
    "list bots": (
        Endpoint("get", lambda w: "/api/bots/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "upload a bot": (
        Endpoint(
            "post",
            lambda w: "/api/bots/",
            lambda w: {"name": "fresh", "game": "akropolis", "file": py_upload()},
        ),
        {"anonymous": 401, "other": 201, "owner": 201},
    ),
    "see a bot": (
        Endpoint("get", lambda w: f"/api/bots/{w.ant.id}/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "open a bot to other users' events": (
        Endpoint(
            "patch", lambda w: f"/api/bots/{w.ant.id}/", lambda w: {"open_to_events": True}, "json"
        ),
        {"anonymous": 401, "other": 403, "owner": 200},
    ),
    "rename a bot": (
        Endpoint("patch", lambda w: f"/api/bots/{w.ant.id}/", lambda w: {"name": "antz"}, "json"),
        {"anonymous": 401, "other": 403, "owner": 200},
    ),
    "retire a bot": (
        Endpoint("post", lambda w: f"/api/bots/{w.ant.id}/retire/"),
        {"anonymous": 401, "other": 403, "owner": 200},
    ),
    "bring a retired bot back": (
        Endpoint("post", lambda w: f"/api/bots/{w.ant.id}/reactivate/"),
        {"anonymous": 401, "other": 403, "owner": 200},
    ),
    "delete a bot": (
        Endpoint("delete", lambda w: f"/api/bots/{w.ant2.id}/"),
        {"anonymous": 401, "other": 403, "owner": 204},
    ),
    "list the tournaments a bot is entered in": (
        Endpoint("get", lambda w: f"/api/bots/{w.ant.id}/entries/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "see a bot's head to head": (
        Endpoint("get", lambda w: f"/api/bots/{w.ant.id}/head-to-head/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "upload a version": (
        Endpoint(
            "post", lambda w: f"/api/bots/{w.ant.id}/versions/", lambda w: {"file": py_upload()}
        ),
        {"anonymous": 401, "other": 403, "owner": 201},
    ),
    "resume a paused version": (
        Endpoint("post", lambda w: f"/api/bots/{w.ant.id}/resume/"),
        {"anonymous": 401, "other": 403, "owner": 200},
    ),
    "download a version": (
        Endpoint("get", lambda w: f"/api/bots/{w.ant.id}/versions/1/download/"),
        {"anonymous": 401, "other": 404, "owner": 200},
    ),
    "list a bot's version tests": (
        Endpoint("get", lambda w: f"/api/bots/{w.ant.id}/tests/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "start a version test": (
        Endpoint(
            "post",
            lambda w: f"/api/bots/{w.ant.id}/tests/",
            lambda w: {"candidate": 1, "baseline_builtin": "random", "max_games": 10},
            "json",
        ),
        {"anonymous": 401, "other": 403, "owner": 201},
    ),
    "see a version test": (
        Endpoint("get", lambda w: f"/api/bots/{w.ant.id}/tests/{w.test.id}/"),
        {"anonymous": 404, "other": 404, "owner": 200},
    ),
    "list ladders": (
        Endpoint("get", lambda w: "/api/ladders/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "see a leaderboard": (
        Endpoint("get", lambda w: f"/api/ladders/{w.ladder.id}/leaderboard/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "list matches": (
        Endpoint("get", lambda w: f"/api/matches/?bot={w.ant.id}"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "see a match": (
        Endpoint("get", lambda w: f"/api/matches/{w.match.id}/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "get a replay": (
        Endpoint("get", lambda w: f"/api/matches/{w.match.id}/replay/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "get a timeline": (
        Endpoint("get", lambda w: f"/api/matches/{w.match.id}/timeline/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "see a match's analysis": (
        Endpoint("get", lambda w: f"/api/matches/{w.match.id}/analysis/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    # Bob owns bee, the match's other bot: both owners may ask (a stranger may not:
    # tests/platform/analysis/test_api.py).
    "ask for a match's analysis": (
        Endpoint("post", lambda w: f"/api/matches/{w.match.id}/analysis/"),
        {"anonymous": 401, "other": 202, "owner": 202},
    ),
    "read a seat's log": (
        Endpoint("get", lambda w: f"/api/matches/{w.match.id}/logs/0/"),
        {"anonymous": 401, "other": 403, "owner": 200},
    ),
    "challenge": (
        Endpoint(
            "post",
            lambda w: "/api/challenges/",
            lambda w: {"ladder": w.ladder.id, "bots": [w.ant.id, w.ant2.id]},
            "json",
        ),
        {"anonymous": 401, "other": 403, "owner": 201},
    ),
    "list tournaments": (
        Endpoint("get", lambda w: "/api/tournaments/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "make a tournament": (
        Endpoint(
            "post",
            lambda w: "/api/tournaments/",
            lambda w: {
                "name": "cup",
                "game": "akropolis",
                "format": "swiss",
                "entry_closes": (timezone.now() + timedelta(hours=1)).isoformat(),
            },
            "json",
        ),
        {"anonymous": 401, "other": 201, "owner": 201},
    ),
    "see a private tournament": (
        Endpoint("get", lambda w: f"/api/tournaments/{w.tournament.id}/"),
        {"anonymous": 404, "other": 404, "owner": 200},
    ),
    "enter a bot into a private tournament": (
        Endpoint(
            "post",
            lambda w: f"/api/tournaments/{w.tournament.id}/entries/",
            lambda w: {"bot": w.bee.id},
            "json",
        ),
        {"anonymous": 401, "other": 404, "owner": 201},
    ),
    "see a private tournament's games": (
        Endpoint("get", lambda w: f"/api/tournaments/{w.tournament.id}/games/"),
        {"anonymous": 404, "other": 404, "owner": 200},
    ),
    "withdraw an entry from a private tournament": (
        Endpoint("delete", lambda w: f"/api/tournaments/{w.tournament.id}/entries/{w.entry.id}/"),
        {"anonymous": 401, "other": 404, "owner": 204},
    ),
    "cancel a private tournament": (
        Endpoint("post", lambda w: f"/api/tournaments/{w.tournament.id}/cancel/"),
        {"anonymous": 401, "other": 404, "owner": 200},
    ),
    "list competitions": (
        Endpoint("get", lambda w: "/api/competitions/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "see a competition": (
        Endpoint("get", lambda w: f"/api/competitions/{w.competition.id}/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "see a competition that is not there": (
        Endpoint("get", lambda w: f"/api/competitions/{w.competition.id + 100}/"),
        {"anonymous": 404, "other": 404, "owner": 404},
    ),
    "see a competition's standings": (
        Endpoint("get", lambda w: f"/api/competitions/{w.competition.id}/standings/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "see a competition's archived games": (
        Endpoint("get", lambda w: f"/api/competitions/{w.competition.id}/games/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    "enter a bot into a competition": (
        Endpoint(
            "post",
            lambda w: f"/api/competitions/{w.competition.id}/entries/",
            lambda w: {"bot": w.ant.id},
            "json",
        ),
        {"anonymous": 401, "other": 403, "owner": 201},
    ),
    "take a bot out of a competition": (
        Endpoint("delete", lambda w: f"/api/competitions/{w.competition.id}/entries/{w.ant2.id}/"),
        {"anonymous": 401, "other": 403, "owner": 204},
    ),
    "list the competitions a bot was entered in": (
        Endpoint("get", lambda w: f"/api/bots/{w.ant.id}/competitions/"),
        {"anonymous": 200, "other": 200, "owner": 200},
    ),
    # Every user has notifications and settings of their own: "other" reads Bob's.
    "list one's notifications": (
        Endpoint("get", lambda w: "/api/notifications/"),
        {"anonymous": 401, "other": 200, "owner": 200},
    ),
    "see one's notification settings": (
        Endpoint("get", lambda w: "/api/notifications/settings/"),
        {"anonymous": 401, "other": 200, "owner": 200},
    ),
    "set all of one's notification settings": (
        Endpoint(
            "put",
            lambda w: "/api/notifications/settings/",
            lambda w: {
                "email": None,
                "kinds": {kind: dict.fromkeys(CHANNELS, True) for kind in KINDS},
            },
            "json",
        ),
        {"anonymous": 401, "other": 200, "owner": 200},
    ),
    "change one's notification settings": (
        Endpoint(
            "patch",
            lambda w: "/api/notifications/settings/",
            lambda w: {"kinds": {"bot_paused": {"email": True}}},
            "json",
        ),
        {"anonymous": 401, "other": 200, "owner": 200},
    ),
    "list one's webhooks": (
        Endpoint("get", lambda w: "/api/notifications/webhooks/"),
        {"anonymous": 401, "other": 200, "owner": 200},
    ),
    "add a webhook": (
        Endpoint(
            "post",
            lambda w: "/api/notifications/webhooks/",
            lambda w: {"url": "https://hooks.example.org/more"},
            "json",
        ),
        {"anonymous": 401, "other": 201, "owner": 201},
    ),
    "see a webhook": (
        Endpoint("get", lambda w: f"/api/notifications/webhooks/{w.webhook.id}/"),
        {"anonymous": 401, "other": 404, "owner": 200},
    ),
    "remove a webhook": (
        Endpoint("delete", lambda w: f"/api/notifications/webhooks/{w.webhook.id}/"),
        {"anonymous": 401, "other": 404, "owner": 204},
    ),
    "send a webhook a test": (
        Endpoint("post", lambda w: f"/api/notifications/webhooks/{w.webhook.id}/test/"),
        {"anonymous": 401, "other": 404, "owner": 202},
    ),
    "read a webhook's deliveries": (
        Endpoint("get", lambda w: f"/api/notifications/webhooks/{w.webhook.id}/deliveries/"),
        {"anonymous": 401, "other": 404, "owner": 200},
    ),
}

CASES = [
    pytest.param(endpoint, role, expected[role], id=f"{name}, as {role}")
    for name, (endpoint, expected) in ENDPOINTS.items()
    for role in ("anonymous", "other", "owner")
]


def client_as(role: str, world: World) -> APIClient:
    if role == "anonymous":
        return APIClient()
    return client_for(world.alice if role == "owner" else world.bob)


@pytest.mark.parametrize(("endpoint", "role", "status"), CASES)
def test_who_may_call_each_endpoint(
    world: World, endpoint: Endpoint, role: str, status: int
) -> None:
    client = client_as(role, world)
    url, data = endpoint.url(world), endpoint.data(world)

    if endpoint.method == "get":
        response = client.get(url)
    elif endpoint.method == "delete":
        response = client.delete(url)
    elif endpoint.method == "patch":
        response = client.patch(url, data, format=endpoint.format)
    elif endpoint.method == "put":
        response = client.put(url, data, format=endpoint.format)
    else:
        response = client.post(url, data, format=endpoint.format)

    assert response.status_code == status, response.content[:300]
    if status >= 400:
        assert set(response.json()) == {"error", "detail"}


def test_every_endpoint_of_the_api_is_covered_here(world: World) -> None:
    from urllib.parse import urlsplit

    from django.urls import resolve

    from agon.api.urls import urlpatterns

    served = {
        (method, f"api/{pattern.pattern}")
        for pattern in urlpatterns
        for method in ("get", "post", "put", "patch", "delete")
        if hasattr(pattern.callback.view_class, method)  # type: ignore[attr-defined]
    }
    covered = {
        (endpoint.method, resolve(urlsplit(endpoint.url(world)).path).route)
        for endpoint, _ in ENDPOINTS.values()
    }

    assert covered == served
