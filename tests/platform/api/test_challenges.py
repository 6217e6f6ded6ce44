"""POST /api/challenges/: unranked matches between chosen bots, rate limited."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.contrib.auth.models import User
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings
from rest_framework.test import APIClient

from agon.bots.models import Bot
from agon.ladders.models import Ladder, Rating
from agon.matches.models import Match
from tests.platform.conftest import MakeBot
from tests.platform.support import finish_match

if TYPE_CHECKING:  # a type of the stubs only
    from rest_framework.response import _MonkeyPatchedResponse

pytestmark = pytest.mark.django_db


@pytest.fixture
def rivals(make_bot: MakeBot, alice: User, bob: User) -> tuple[Bot, Bot]:
    return make_bot(alice, "ant"), make_bot(bob, "bee")


def challenge(client: APIClient, ladder: Ladder, bots: list[Bot]) -> _MonkeyPatchedResponse:
    return client.post(
        "/api/challenges/", {"ladder": ladder.id, "bots": [bot.id for bot in bots]}, format="json"
    )


def test_a_user_challenges_another_user_s_bot(
    alice_client: APIClient,
    ladder_2p: Ladder,
    rivals: tuple[Bot, Bot],
    alice: User,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    ant, bee = rivals

    with django_capture_on_commit_callbacks() as callbacks:
        response = alice_client.post(
            "/api/challenges/", {"ladder": ladder_2p.id, "bots": [bee.id, ant.id]}, format="json"
        )

    assert response.status_code == 201
    body = response.json()
    match = Match.objects.get(id=body["id"])
    assert (match.kind, match.ladder, match.created_by) == ("challenge", ladder_2p, alice)
    assert body["kind"] == "challenge"
    assert body["status"] == "queued"
    assert body["ladder"] == ladder_2p.id
    assert [seat["bot_label"] for seat in body["seats"]] == ["bob/bee@v1", "alice/ant@v1"]
    assert len(callbacks) == 1  # the match's task, sent once the challenge commits


def test_a_challenge_does_not_change_ratings(
    alice_client: APIClient, ladder_2p: Ladder, rivals: tuple[Bot, Bot]
) -> None:
    before = list(Rating.objects.order_by("id").values_list("rating", "games"))
    match = Match.objects.get(id=challenge(alice_client, ladder_2p, list(rivals)).json()["id"])

    finish_match(match, scores=[90, 10])

    assert list(Rating.objects.order_by("id").values_list("rating", "games")) == before


def test_a_user_may_pit_two_of_their_own_bots(
    alice_client: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User
) -> None:
    response = challenge(alice_client, ladder_2p, [make_bot(alice, "a"), make_bot(alice, "b")])

    assert response.status_code == 201


def test_a_challenge_needs_one_of_your_own_bots(
    alice_client: APIClient, ladder_2p: Ladder, make_bot: MakeBot, bob: User
) -> None:
    response = challenge(alice_client, ladder_2p, [make_bot(bob, "b1"), make_bot(bob, "b2")])

    assert response.status_code == 403
    assert response.json()["error"] == "a challenge needs at least one of your own bots"
    assert not Match.objects.filter(kind=Match.Kind.CHALLENGE).exists()


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (["ant"], "the ladder 'Akropolis 2p' is for 2 bots, not 1"),
        (["ant", "bee", "bee"], "the ladder 'Akropolis 2p' is for 2 bots, not 3"),
        (["ant", "ant"], "a bot cannot play against itself: name each bot once"),
        (["ant", "new"], "the bot 'new' has no active version yet"),
    ],
)
def test_it_refuses_a_challenge_that_cannot_be_played(
    alice_client: APIClient,
    ladder_2p: Ladder,
    rivals: tuple[Bot, Bot],
    make_bot: MakeBot,
    bob: User,
    seats: list[str],
    message: str,
) -> None:
    bots = {bot.name: bot for bot in (*rivals, make_bot(bob, "new", active=False))}

    response = challenge(alice_client, ladder_2p, [bots[name] for name in seats])

    assert response.status_code == 400
    assert response.json() == {"error": message, "detail": [message]}
    assert not Match.objects.filter(kind=Match.Kind.CHALLENGE).exists()


def test_it_refuses_bots_of_another_game_than_the_ladder_s(
    alice_client: APIClient, rivals: tuple[Bot, Bot]
) -> None:
    # Any game but Akropolis, whichever the engine has: the check is on the ids alone.
    other = Ladder.objects.create(name="Other 2p", game="othergame", players=2)

    response = challenge(alice_client, other, list(rivals))

    assert response.status_code == 400
    assert response.json()["error"] == "the bot 'ant' plays akropolis, not othergame"


def test_it_refuses_a_closed_ladder(
    alice_client: APIClient, ladder_2p: Ladder, rivals: tuple[Bot, Bot]
) -> None:
    Ladder.objects.filter(id=ladder_2p.id).update(active=False)

    response = challenge(alice_client, ladder_2p, list(rivals))

    assert response.status_code == 400
    assert response.json()["error"] == "the ladder 'Akropolis 2p' is closed"


def test_it_refuses_unknown_bots_and_ladders(
    alice_client: APIClient, ladder_2p: Ladder, rivals: tuple[Bot, Bot]
) -> None:
    ant = rivals[0]

    no_bot = alice_client.post(
        "/api/challenges/", {"ladder": ladder_2p.id, "bots": [ant.id, 999999]}, format="json"
    )
    no_ladder = alice_client.post(
        "/api/challenges/", {"ladder": 999999, "bots": [ant.id, rivals[1].id]}, format="json"
    )
    no_fields = alice_client.post("/api/challenges/", {}, format="json")

    assert no_bot.status_code == no_ladder.status_code == no_fields.status_code == 400
    assert no_bot.json()["error"] == "there is no bot with id 999999"
    assert no_ladder.json()["error"] == "there is no ladder 999999"
    assert no_fields.json()["error"] == "ladder: This field is required."


def test_anonymous_users_cannot_challenge(
    anonymous: APIClient, ladder_2p: Ladder, rivals: tuple[Bot, Bot]
) -> None:
    response = challenge(anonymous, ladder_2p, list(rivals))

    assert response.status_code == 401
    assert not Match.objects.filter(kind=Match.Kind.CHALLENGE).exists()


def test_challenges_are_rate_limited_per_user(
    alice_client: APIClient,
    bob_client: APIClient,
    ladder_2p: Ladder,
    rivals: tuple[Bot, Bot],
    settings: Settings,
) -> None:
    settings.AGON_RATE_LIMITS = {**settings.AGON_RATE_LIMITS, "challenge": "2/hour"}
    allowed = [challenge(alice_client, ladder_2p, list(rivals)) for _ in range(2)]

    refused = challenge(alice_client, ladder_2p, list(rivals))
    someone_else = challenge(bob_client, ladder_2p, list(rivals))

    assert [response.status_code for response in allowed] == [201, 201]
    assert refused.status_code == 429
    assert refused.json()["error"] == "too many challenges: try again in 60 minutes"
    assert refused["Retry-After"] == "3600"
    assert someone_else.status_code == 201
    assert Match.objects.filter(kind=Match.Kind.CHALLENGE).count() == 3


def test_a_user_has_at_most_so_many_challenges_waiting_or_playing(
    alice_client: APIClient,
    bob_client: APIClient,
    ladder_2p: Ladder,
    rivals: tuple[Bot, Bot],
    settings: Settings,
) -> None:
    settings.AGON_CHALLENGES_WAITING = 2
    first, second = (challenge(alice_client, ladder_2p, list(rivals)) for _ in range(2))
    Match.objects.filter(id=second.json()["id"]).update(status=Match.Status.RUNNING)

    refused = challenge(alice_client, ladder_2p, list(rivals))
    someone_else = challenge(bob_client, ladder_2p, list(rivals))
    finish_match(Match.objects.get(id=first.json()["id"]), scores=[90, 10])
    once_one_is_over = challenge(alice_client, ladder_2p, list(rivals))

    assert [first.status_code, second.status_code] == [201, 201]
    assert refused.status_code == 400
    assert refused.json()["error"] == (
        "you have 2 challenges waiting or playing, the most at once: "
        "send another when one of them is over"
    )
    assert someone_else.status_code == 201
    assert once_one_is_over.status_code == 201
    assert (
        Match.objects.filter(kind=Match.Kind.CHALLENGE, created_by__username="alice").count() == 3
    )
