"""Challenges from a ladder's page: the signed-in owner picks one of their bots and the
ladder's rated bots as opponents; the match is made by the API's service under the
API's limits, and the page follows it. What the form offers is all it accepts."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django import Settings
from rest_framework.test import APIClient

from agon.bots.models import Bot
from agon.ladders.models import Ladder
from agon.matches.models import Match
from tests.platform.conftest import PASSWORD, MakeBot

if TYPE_CHECKING:  # a type of the stubs only
    from django.test.client import _MonkeyPatchedWSGIResponse

pytestmark = pytest.mark.django_db


@pytest.fixture
def bots(make_bot: MakeBot, alice: User, bob: User) -> dict[str, Bot]:
    """alice's ant and bob's bee and wasp on the Akropolis ladders; bob's unvalidated
    new bot, and his bot of another game."""
    return {
        "ant": make_bot(alice, "ant"),
        "bee": make_bot(bob, "bee"),
        "wasp": make_bot(bob, "wasp"),
        "new": make_bot(bob, "new", active=False),
        "other": make_bot(bob, "other", game="architekton"),
    }


def ladder(players: int) -> Ladder:
    return Ladder.objects.get(game="akropolis", players=players)


def challenges() -> list[Match]:
    return list(Match.objects.filter(kind=Match.Kind.CHALLENGE))


def post(client: Client, players: int, **fields: object) -> _MonkeyPatchedWSGIResponse:
    return client.post(f"/ladders/{ladder(players).id}/challenge/", fields)


def test_anonymous_visitors_are_asked_to_sign_in(client: Client, bots: dict[str, Bot]) -> None:
    page = client.get(f"/ladders/{ladder(2).id}/").content.decode()
    response = client.post(
        f"/ladders/{ladder(2).id}/challenge/", {"bot": bots["ant"].id, "opponent_1": 1}
    )

    assert "Sign in</a> to challenge the bots of this ladder" in page
    assert 'action="/ladders/' not in page
    assert response.status_code == 302
    assert response["Location"].startswith("/signin/?next=")
    assert challenges() == []


def test_the_form_offers_your_validated_bots_and_the_ladder_s_rated_bots(
    alice_browser: Client, bots: dict[str, Bot]
) -> None:
    response = alice_browser.get(f"/ladders/{ladder(3).id}/")
    form = response.context["form"]

    assert [label for _, label in form.fields["bot"].choices] == ["ant"]
    offered = [label.split(" · ")[0] for _, label in form.fields["opponent_1"].choices[1:]]
    assert sorted(offered) == ["alice/ant", "bob/bee", "bob/wasp"]
    assert list(form.fields) == ["bot", "opponent_1", "opponent_2", "seat"]
    page = response.content.decode()
    assert '<label for="id_opponent_2">Opponent 2</label>' in page
    assert "Start the match" in page


def test_a_user_without_a_validated_bot_is_told_to_upload_one(
    bob_browser: Client, make_bot: MakeBot, bob: User, ladders: list[Ladder]
) -> None:
    make_bot(bob, "new", active=False)

    page = bob_browser.get(f"/ladders/{ladder(2).id}/").content.decode()

    assert "You have no Akropolis bot that passed its validation yet" in page
    assert "Start the match" not in page


def test_a_challenge_starts_an_unranked_match_and_opens_its_page(
    alice_browser: Client, alice: User, bots: dict[str, Bot]
) -> None:
    response = post(
        alice_browser,
        3,
        bot=bots["ant"].id,
        opponent_1=bots["bee"].id,
        opponent_2=bots["wasp"].id,
        seat=1,
    )

    (match,) = challenges()
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{match.id}/"
    assert (match.ladder, match.created_by, match.players) == (ladder(3), alice, 3)
    seated = [seat.version.bot.name for seat in match.seats.order_by("seat") if seat.version]
    assert seated == ["bee", "ant", "wasp"]
    page = alice_browser.get(response["Location"]).content.decode()
    assert f"Your challenge is match #{match.id}" in page


@pytest.mark.parametrize(
    ("fields", "field", "error"),
    [
        # Someone else's bot as "your bot".
        ({"bot": "bee", "opponent_1": "wasp"}, "bot", "Select a valid choice."),
        # A bot that is not rated on this ladder: unvalidated, another game's, none at all.
        ({"bot": "ant", "opponent_1": "new"}, "opponent_1", "Select a valid choice."),
        ({"bot": "ant", "opponent_1": "other"}, "opponent_1", "Select a valid choice."),
        ({"bot": "ant", "opponent_1": 999999}, "opponent_1", "Select a valid choice."),
        ({"bot": "ant", "opponent_1": "1 OR 1=1"}, "opponent_1", "Select a valid choice."),
        ({"bot": "ant"}, "opponent_1", "This field is required."),
        ({"bot": "ant", "opponent_1": "bee", "seat": 2}, "seat", "Select a valid choice."),
    ],
)
def test_it_accepts_only_what_the_form_offers(
    alice_browser: Client,
    bots: dict[str, Bot],
    fields: dict[str, object],
    field: str,
    error: str,
) -> None:
    data = {
        name: bots[value].id if isinstance(value, str) and value in bots else value
        for name, value in {"seat": 0, **fields}.items()
    }

    response = post(alice_browser, 2, **data)

    assert response.status_code == 200
    assert error in response.context["form"].errors[field][0]
    assert challenges() == []


def test_a_table_needs_as_many_bots_as_the_ladder_seats(
    alice_browser: Client, bots: dict[str, Bot]
) -> None:
    one_missing = post(alice_browser, 3, bot=bots["ant"].id, opponent_1=bots["bee"].id, seat=0)
    twice_the_same = post(
        alice_browser,
        3,
        bot=bots["ant"].id,
        opponent_1=bots["bee"].id,
        opponent_2=bots["bee"].id,
        seat=0,
    )

    assert one_missing.context["form"].errors["opponent_2"] == ["This field is required."]
    assert "Your challenge was not sent: a bot cannot play against itself: name each bot once." in (
        twice_the_same.content.decode()
    )
    assert challenges() == []


def test_the_form_needs_its_csrf_token(alice: User, bots: dict[str, Bot]) -> None:
    browser = Client(enforce_csrf_checks=True)
    assert browser.login(username="alice", password=PASSWORD)

    response = browser.post(
        f"/ladders/{ladder(2).id}/challenge/",
        {"bot": bots["ant"].id, "opponent_1": bots["bee"].id, "seat": 0},
    )

    assert response.status_code == 403
    assert challenges() == []


def test_the_page_and_the_api_share_one_rate_limit(
    alice_browser: Client, alice_client: APIClient, bots: dict[str, Bot], settings: Settings
) -> None:
    settings.AGON_RATE_LIMITS = {**settings.AGON_RATE_LIMITS, "challenge": "2/hour"}
    pair = [bots["ant"].id, bots["bee"].id]
    by_api = alice_client.post(
        "/api/challenges/", {"ladder": ladder(2).id, "bots": pair}, format="json"
    )
    by_page = post(alice_browser, 2, bot=pair[0], opponent_1=pair[1], seat=0)
    refused = post(alice_browser, 2, bot=pair[0], opponent_1=pair[1], seat=0)

    assert (by_api.status_code, by_page.status_code, refused.status_code) == (201, 302, 429)
    assert refused["Retry-After"] == "3600"
    page = refused.content.decode()
    assert "Too many challenges: try again in 60 minutes." in page
    assert "Start the match" in page
    assert len(challenges()) == 2


def test_it_says_when_too_many_of_your_challenges_are_waiting(
    alice_browser: Client, bots: dict[str, Bot], settings: Settings
) -> None:
    settings.AGON_CHALLENGES_WAITING = 1
    fields = {"bot": bots["ant"].id, "opponent_1": bots["bee"].id, "seat": 0}
    post(alice_browser, 2, **fields)

    refused = post(alice_browser, 2, **fields)

    assert refused.status_code == 200
    assert (
        "Your challenge was not sent: you have 1 challenge waiting or playing, the most at "
        "once: send another when one of them is over."
    ) in refused.content.decode()
    assert len(challenges()) == 1


def test_a_closed_ladder_takes_no_challenge(alice_browser: Client, bots: dict[str, Bot]) -> None:
    Ladder.objects.filter(id=ladder(2).id).update(active=False)

    page = alice_browser.get(f"/ladders/{ladder(2).id}/").content.decode()
    refused = post(alice_browser, 2, bot=bots["ant"].id, opponent_1=bots["bee"].id, seat=0)

    assert "Start the match" not in page
    assert "the ladder &#x27;Akropolis 2p&#x27; is closed" in refused.content.decode()
    assert challenges() == []


def test_a_bot_s_page_links_to_a_challenge_with_it_chosen(
    alice_browser: Client, bots: dict[str, Bot]
) -> None:
    bee = bots["bee"]
    page = alice_browser.get(f"/bots/{bee.id}/").content.decode()
    link = f"/ladders/{ladder(2).id}/?opponent={bee.id}#challenge"

    assert f'<a href="{link}">Challenge bee on Akropolis 2p</a>' in page
    form = alice_browser.get(link).context["form"]
    assert form["opponent_1"].value() == str(bee.id)
    assert f'<option value="{bee.id}" selected>' in str(form["opponent_1"])


@pytest.fixture
def bob_browser(bob: User) -> Client:
    client = Client()
    assert client.login(username="bob", password=PASSWORD)
    return client


def test_a_ladder_with_too_few_bots_for_a_table_says_so(
    alice_browser: Client, bots: dict[str, Bot]
) -> None:
    page = alice_browser.get(f"/ladders/{ladder(4).id}/").content.decode()

    assert "Too few bots are rated on this ladder for a table of 4 yet." in page
    assert "Start the match" not in page
