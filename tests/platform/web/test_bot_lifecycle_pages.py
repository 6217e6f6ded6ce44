"""The owner's page of a bot: rename it, retire it and bring it back, delete it after a
confirmation (or be told to retire it); and the version-test form's baselines, grouped:
builtins, the owner's own, other users' public bots with their owners and ratings."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from agon.bots.models import Bot
from agon.bots.retirement import bot_retire
from agon.ladders.models import Ladder, Rating
from agon.version_testing.models import VersionTest
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.support import play_ranked
from tests.platform.version_testing.support import bot_with_two_versions

pytestmark = pytest.mark.django_db


@pytest.fixture
def hero(make_bot: MakeBot, alice: User) -> Bot:
    return make_bot(alice, "hero")


@pytest.fixture
def bob_browser(bob: User) -> Client:
    client = Client()
    assert client.login(username="bob", password=PASSWORD)
    return client


def page_of(client: Client, bot: Bot) -> str:
    return client.get(reverse("web:my-bot", args=[bot.id])).content.decode()


# --- rename ------------------------------------------------------------------------------


def test_the_owner_renames_a_bot_on_its_page(hero: Bot, alice_browser: Client) -> None:
    assert f'action="/my/bots/{hero.id}/rename/#manage"' in page_of(alice_browser, hero)

    response = alice_browser.post(reverse("web:my-bot-rename", args=[hero.id]), {"name": "Zeus"})

    assert response.status_code == 302 and response["Location"] == f"/my/bots/{hero.id}/"
    hero.refresh_from_db()
    assert hero.name == "Zeus"
    assert "hero is now called Zeus." in page_of(alice_browser, hero)


def test_a_refused_name_is_said_beside_the_form(
    hero: Bot, make_bot: MakeBot, alice: User, alice_browser: Client
) -> None:
    make_bot(alice, "rival")

    response = alice_browser.post(reverse("web:my-bot-rename", args=[hero.id]), {"name": "RIVAL"})

    assert response.status_code == 400
    page = response.content.decode()
    assert "looks too much like that of your bot &#x27;rival&#x27;" in page
    assert 'value="RIVAL"' in page, "the name typed is kept in the form"
    hero.refresh_from_db()
    assert hero.name == "hero"


# --- retire and bring back ---------------------------------------------------------------


def test_the_owner_retires_a_bot_and_brings_it_back(
    hero: Bot, alice_browser: Client, ladder_2p: Ladder
) -> None:
    page = page_of(alice_browser, hero)
    assert "Plays ranked matches on" in page and "Retire hero" in page

    response = alice_browser.post(reverse("web:my-bot-retire", args=[hero.id]))

    assert response.status_code == 302
    hero.refresh_from_db()
    assert hero.retired is not None
    page = page_of(alice_browser, hero)
    assert "hero is retired" in page
    assert "Plays ranked matches on" not in page
    assert "Bring hero back" in page
    mine = alice_browser.get(reverse("web:my-bots")).content.decode()
    assert '<span class="badge badge-retired">retired</span>' in mine
    public = Client().get(reverse("web:bot", args=[hero.id])).content.decode()
    assert "Retired by its owner" in public

    alice_browser.post(reverse("web:my-bot-reactivate", args=[hero.id]))

    hero.refresh_from_db()
    assert hero.retired is None
    assert "Plays ranked matches on" in page_of(alice_browser, hero)


# --- delete ------------------------------------------------------------------------------


def test_deleting_asks_first_then_deletes(hero: Bot, alice_browser: Client) -> None:
    confirm = alice_browser.get(reverse("web:my-bot-delete", args=[hero.id]))

    assert confirm.status_code == 200
    text = confirm.content.decode()
    assert "Delete hero for good?" in text
    assert "its 1 version and their code" in text
    assert Bot.objects.filter(id=hero.id).exists(), "a GET deletes nothing"

    response = alice_browser.post(reverse("web:my-bot-delete", args=[hero.id]))

    assert response.status_code == 302 and response["Location"] == reverse("web:my-bots")
    assert not Bot.objects.filter(id=hero.id).exists()
    assert "hero is deleted, with its versions." in (
        alice_browser.get(reverse("web:my-bots")).content.decode()
    )


def test_a_bot_that_played_ranked_matches_is_retired_instead(
    hero: Bot, make_bot: MakeBot, bob: User, alice_browser: Client, ladder_2p: Ladder
) -> None:
    play_ranked(ladder_2p, [hero, make_bot(bob, "rival")], [30, 10])

    confirm = alice_browser.get(reverse("web:my-bot-delete", args=[hero.id])).content.decode()

    assert "hero cannot be deleted" in confirm
    assert "retire it instead" in confirm
    assert f'action="/my/bots/{hero.id}/retire/"' in confirm
    refused = alice_browser.post(reverse("web:my-bot-delete", args=[hero.id]))
    assert refused.status_code == 409
    assert Bot.objects.filter(id=hero.id).exists()


def test_nobody_renames_retires_or_deletes_anybody_elses_bot(
    hero: Bot, bob_browser: Client
) -> None:
    for name, data in (
        ("web:my-bot-rename", {"name": "bobs"}),
        ("web:my-bot-retire", {}),
        ("web:my-bot-reactivate", {}),
        ("web:my-bot-delete", {}),
    ):
        assert bob_browser.post(reverse(name, args=[hero.id]), data).status_code == 404
    assert bob_browser.get(reverse("web:my-bot-delete", args=[hero.id])).status_code == 404
    hero.refresh_from_db()
    assert (hero.name, hero.retired) == ("hero", None)


# --- the version test's baselines --------------------------------------------------------


def test_the_baselines_are_grouped_with_other_users_public_bots_and_their_ratings(
    make_bot: MakeBot,
    alice: User,
    bob: User,
    carol: User,
    alice_browser: Client,
    ladder_2p: Ladder,
) -> None:
    hero = bot_with_two_versions(make_bot, alice)
    sparring = make_bot(alice, "sparring")
    public = make_bot(bob, "open")
    private = make_bot(carol, "secret")
    retired = make_bot(carol, "gone")
    Bot.objects.filter(id__in=[public.id, retired.id]).update(open_to_events=True)
    bot_retire(bot=retired)
    play_ranked(ladder_2p, [public, private], [30, 10])
    shown = Rating.objects.get(bot=public, ladder=ladder_2p).shown

    page = page_of(alice_browser, hero)

    form = page[
        page.index('id="id_baseline"') : page.index("</select>", page.index('id="id_baseline"'))
    ]
    groups = [html.unescape(label) for label in re.findall(r'<optgroup label="([^"]+)">', form)]
    assert groups == [
        "Builtin bots",
        "Versions of this bot",
        "Your other bots",
        "Other users' public bots",
    ]
    assert f'<option value="bot:{sparring.id}">sparring (your bot)</option>' in form
    assert (
        f'<option value="bot:{public.id}">bob/open · {shown} on {ladder_2p.name}</option>' in form
    )
    assert "secret" not in form and "gone" not in form


def test_a_test_starts_against_another_users_public_bot_from_the_form(
    make_bot: MakeBot, alice: User, bob: User, alice_browser: Client
) -> None:
    hero = bot_with_two_versions(make_bot, alice)
    public = make_bot(bob, "open")
    Bot.objects.filter(id=public.id).update(open_to_events=True)

    response = alice_browser.post(
        reverse("web:version-test-start", args=[hero.id]),
        {
            "candidate": "2",
            "baseline": f"bot:{public.id}",
            "players": "2",
            "elo0": "0",
            "elo1": "50",
            "alpha": "0.05",
            "beta": "0.05",
            "max_games": "20",
        },
    )

    assert response.status_code == 302
    test = VersionTest.objects.get()
    assert test.baseline is not None and test.baseline.bot_id == public.id


def test_the_form_refuses_a_private_bot_named_by_hand(
    make_bot: MakeBot, alice: User, bob: User, alice_browser: Client
) -> None:
    hero = bot_with_two_versions(make_bot, alice)
    private = make_bot(bob, "secret")

    response = alice_browser.post(
        reverse("web:version-test-start", args=[hero.id]),
        {
            "candidate": "2",
            "baseline": f"bot:{private.id}",
            "players": "2",
            "elo0": "0",
            "elo1": "50",
            "alpha": "0.05",
            "beta": "0.05",
            "max_games": "20",
        },
    )

    assert response.status_code == 400
    assert "Select a valid choice." in response.content.decode()
    assert "secret" not in response.content.decode()
    assert not VersionTest.objects.exists()
