"""A bot's life after its upload, through the API: renamed, retired and brought back,
deleted while nothing of anybody else's refers to it; only by its owner (or staff).

These run on SQLite too (tests/platform/test_private_events_on_sqlite.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from pytest_django import DjangoCaptureOnCommitCallbacks as CaptureOnCommit
from rest_framework.test import APIClient

from agon.bots.models import Bot, BotVersion
from agon.bots.services import version_submit
from agon.ladders.models import Ladder, Rating
from agon.ladders.services import challenge_create
from agon.matches.models import Match
from agon.tournaments.models import Entry
from agon.tournaments.services import entry_create
from agon.version_testing.models import VersionTest
from agon.version_testing.services import Baseline, version_test_create
from tests.platform.conftest import MakeBot, client_for
from tests.platform.support import (
    finish_match,
    latest_version,
    play_ranked,
    py_upload,
    ranked_match,
)
from tests.platform.tournaments.support import open_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def hero(make_bot: MakeBot, alice: User) -> Bot:
    return make_bot(alice, "hero")


@pytest.fixture
def staff_client(db: None) -> APIClient:
    return client_for(User.objects.create_user("moderator", is_staff=True))


# --- rename ------------------------------------------------------------------------------


def test_the_owner_renames_a_bot(alice_client: APIClient, hero: Bot) -> None:
    response = alice_client.patch(f"/api/bots/{hero.id}/", {"name": "Hero Two"}, format="json")

    assert response.status_code == 200, response.json()
    assert response.json()["name"] == "Hero Two"
    hero.refresh_from_db()
    assert hero.name == "Hero Two"
    assert latest_version(hero).label == "alice/Hero Two@v1"


def test_a_new_name_is_normalised_as_at_upload(alice_client: APIClient, hero: Bot) -> None:
    full_width = "  \uff48\uff45\uff52\uff4f  "  # "hero" in full-width letters

    response = alice_client.patch(f"/api/bots/{hero.id}/", {"name": full_width}, format="json")

    assert response.status_code == 200
    assert response.json()["name"] == "hero"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "This field may not be blank."),
        ("x" * 65, "Ensure this field has no more than 64 characters."),
        ("two/parts", "may not hold @ or /"),
        ("right\u202eleft", "control or formatting characters"),
        ("rival", "you already have a bot called 'rival'"),
        ("RIVAL", "looks too much like that of your bot 'rival'"),
    ],
)
def test_a_name_that_would_be_refused_at_upload_is_400_saying_why(
    alice_client: APIClient, hero: Bot, make_bot: MakeBot, alice: User, name: str, message: str
) -> None:
    make_bot(alice, "rival")

    response = alice_client.patch(f"/api/bots/{hero.id}/", {"name": name}, format="json")

    assert response.status_code == 400
    assert message in response.json()["error"]
    hero.refresh_from_db()
    assert hero.name == "hero"


def test_a_bot_may_take_its_own_name_in_another_case(alice_client: APIClient, hero: Bot) -> None:
    response = alice_client.patch(f"/api/bots/{hero.id}/", {"name": "HERO"}, format="json")

    assert response.status_code == 200 and response.json()["name"] == "HERO"


def test_another_owner_may_have_a_bot_of_the_same_name(
    bob_client: APIClient, hero: Bot, make_bot: MakeBot, bob: User
) -> None:
    theirs = make_bot(bob, "other")

    response = bob_client.patch(f"/api/bots/{theirs.id}/", {"name": "hero"}, format="json")

    assert response.status_code == 200


def test_an_empty_update_is_400(alice_client: APIClient, hero: Bot) -> None:
    response = alice_client.patch(f"/api/bots/{hero.id}/", {}, format="json")

    assert response.status_code == 400
    assert "name or open_to_events" in response.json()["error"]


# --- who may -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("patch", "/api/bots/{id}/", {"name": "mine now"}),
        ("post", "/api/bots/{id}/retire/", None),
        ("post", "/api/bots/{id}/reactivate/", None),
        ("delete", "/api/bots/{id}/", None),
    ],
)
def test_only_the_owner_changes_a_bot(
    anonymous: APIClient,
    bob_client: APIClient,
    hero: Bot,
    method: str,
    path: str,
    body: dict[str, str] | None,
) -> None:
    url = path.format(id=hero.id)

    assert getattr(anonymous, method)(url, body, format="json").status_code == 401
    refused = getattr(bob_client, method)(url, body, format="json")
    assert refused.status_code == 403
    assert refused.json()["error"] == "only the owner of this bot may do this"
    missing = getattr(bob_client, method)(path.format(id=hero.id + 999), body, format="json")
    assert missing.status_code == 404
    hero.refresh_from_db()
    assert (hero.name, hero.retired) == ("hero", None)


def test_staff_rename_retire_and_delete_as_admins(staff_client: APIClient, hero: Bot) -> None:
    renamed = staff_client.patch(f"/api/bots/{hero.id}/", {"name": "tidy"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "tidy"
    assert staff_client.post(f"/api/bots/{hero.id}/retire/").json()["retired"] is not None
    assert staff_client.post(f"/api/bots/{hero.id}/reactivate/").json()["retired"] is None
    assert staff_client.delete(f"/api/bots/{hero.id}/").status_code == 204


def test_only_the_owner_opens_a_bot_to_events_staff_included(
    staff_client: APIClient, hero: Bot
) -> None:
    response = staff_client.patch(f"/api/bots/{hero.id}/", {"open_to_events": True}, format="json")

    assert response.status_code == 403
    assert "only its owner" in response.json()["error"]
    hero.refresh_from_db()
    assert not hero.open_to_events


# --- retire and reactivate ---------------------------------------------------------------


def test_a_retired_bot_leaves_the_leaderboards_and_keeps_its_history(
    alice_client: APIClient,
    anonymous: APIClient,
    hero: Bot,
    make_bot: MakeBot,
    bob: User,
    ladder_2p: Ladder,
) -> None:
    rival = make_bot(bob, "rival")
    played = play_ranked(ladder_2p, [hero, rival], [30, 10])
    rating = Rating.objects.get(bot=hero, ladder=ladder_2p)

    response = alice_client.post(f"/api/bots/{hero.id}/retire/")

    assert response.status_code == 200
    assert response.json()["retired"] is not None
    board = anonymous.get(f"/api/ladders/{ladder_2p.id}/leaderboard/").json()["results"]
    assert [row["bot"] for row in board] == [rival.id]
    kept = anonymous.get(f"/api/bots/{hero.id}/").json()
    assert [r["rating"] for r in kept["ratings"] if r["ladder"] == ladder_2p.id] == [rating.rating]
    assert anonymous.get(f"/api/matches/{played.id}/").status_code == 200
    assert anonymous.get(f"/api/matches/{played.id}/replay/").status_code == 200


def test_retiring_twice_changes_nothing(alice_client: APIClient, hero: Bot) -> None:
    first = alice_client.post(f"/api/bots/{hero.id}/retire/").json()["retired"]
    again = alice_client.post(f"/api/bots/{hero.id}/retire/")

    assert again.status_code == 200 and again.json()["retired"] == first


def test_a_reactivated_bot_is_back_on_the_board_with_its_rating(
    alice_client: APIClient,
    anonymous: APIClient,
    hero: Bot,
    make_bot: MakeBot,
    bob: User,
    ladder_2p: Ladder,
) -> None:
    rival = make_bot(bob, "rival")
    play_ranked(ladder_2p, [hero, rival], [30, 10])
    before = Rating.objects.get(bot=hero, ladder=ladder_2p).rating
    alice_client.post(f"/api/bots/{hero.id}/retire/")

    response = alice_client.post(f"/api/bots/{hero.id}/reactivate/")

    assert response.status_code == 200 and response.json()["retired"] is None
    board = anonymous.get(f"/api/ladders/{ladder_2p.id}/leaderboard/").json()["results"]
    assert [row["bot"] for row in board] == [hero.id, rival.id]
    assert Rating.objects.get(bot=hero, ladder=ladder_2p).rating == before


def test_retiring_cancels_its_queued_ranked_matches_and_lets_a_running_one_finish(
    alice_client: APIClient, hero: Bot, make_bot: MakeBot, bob: User, ladder_2p: Ladder
) -> None:
    rival = make_bot(bob, "rival")
    versions = [latest_version(hero), latest_version(rival)]
    queued = ranked_match(ladder_2p, versions)
    running = ranked_match(ladder_2p, versions)
    Match.objects.filter(id=running.id).update(status=Match.Status.RUNNING)
    running.status = Match.Status.RUNNING
    others = ranked_match(ladder_2p, [latest_version(rival), latest_version(make_bot(bob, "b"))])

    alice_client.post(f"/api/bots/{hero.id}/retire/")

    queued.refresh_from_db()
    assert queued.status == Match.Status.FAILED
    assert queued.error == "not played: hero was retired by its owner"
    others.refresh_from_db()
    assert others.status == Match.Status.QUEUED
    # The running match ends as any other, its rating moves (off the board).
    Match.objects.filter(id=running.id).update(status=Match.Status.QUEUED)
    finish_match(running, scores=[30, 10])
    assert Rating.objects.get(bot=hero, ladder=ladder_2p).games == 1


# --- delete ------------------------------------------------------------------------------


def test_a_bot_that_played_only_its_own_matches_is_deleted_with_its_code(
    alice_client: APIClient,
    hero: Bot,
    media_root: Path,
    django_capture_on_commit_callbacks: CaptureOnCommit,
) -> None:
    archive = latest_version(hero).archive.name
    validation = Match.objects.get(seats__version__bot=hero)
    assert (media_root / archive).exists() and validation.replay
    replay = validation.replay.name
    assert (media_root / replay).exists()

    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.delete(f"/api/bots/{hero.id}/")

    assert response.status_code == 204
    assert not Bot.objects.filter(id=hero.id).exists()
    assert not BotVersion.objects.filter(bot_id=hero.id).exists()
    assert not Rating.objects.filter(bot_id=hero.id).exists()
    assert not Match.objects.filter(id=validation.id).exists()
    assert not (media_root / archive).exists()
    assert not (media_root / replay).exists()
    assert alice_client.get(f"/api/bots/{hero.id}/").status_code == 404


def test_its_own_version_tests_and_open_entries_go_with_it(
    alice_client: APIClient, hero: Bot, alice: User
) -> None:
    version_test_create(user=alice, bot=hero, candidate=1, baseline=Baseline(builtin="greedy"))
    tournament = open_tournament(alice)
    entry_create(user=alice, tournament_id=tournament.id, bot_id=hero.id)

    assert alice_client.delete(f"/api/bots/{hero.id}/").status_code == 204

    assert not VersionTest.objects.exists()
    assert not Entry.objects.exists()


def test_a_bot_that_played_a_ranked_match_is_409_retire_it_instead(
    alice_client: APIClient, hero: Bot, make_bot: MakeBot, bob: User, ladder_2p: Ladder
) -> None:
    play_ranked(ladder_2p, [hero, make_bot(bob, "rival")], [30, 10])

    response = alice_client.delete(f"/api/bots/{hero.id}/")

    assert response.status_code == 409
    assert response.json()["error"] == (
        "hero has played ranked matches or taken part in a tournament, which other players' "
        "histories and replays refer to: it cannot be deleted; retire it instead (POST "
        f"/api/bots/{hero.id}/retire/)"
    )
    assert Bot.objects.filter(id=hero.id).exists()


def test_a_bot_that_met_another_users_bot_is_409(
    alice_client: APIClient, hero: Bot, make_bot: MakeBot, bob: User, ladder_2p: Ladder
) -> None:
    challenge_create(user=bob, ladder=ladder_2p, bot_ids=[make_bot(bob, "rival").id, hero.id])

    response = alice_client.delete(f"/api/bots/{hero.id}/")

    assert response.status_code == 409
    assert "played against other users' bots" in response.json()["error"]


def test_a_bot_another_user_tests_against_is_409(
    alice_client: APIClient, hero: Bot, make_bot: MakeBot, bob: User
) -> None:
    hero.open_to_events = True
    hero.save()
    version_test_create(
        user=bob, bot=make_bot(bob, "mine"), candidate=1, baseline=Baseline(bot=hero.id)
    )

    response = alice_client.delete(f"/api/bots/{hero.id}/")

    assert response.status_code == 409
    assert "another user's version test" in response.json()["error"]


def test_a_bot_with_a_match_being_played_is_409_until_it_ends(
    alice_client: APIClient, hero: Bot
) -> None:
    version = version_submit(bot=hero, upload=py_upload())
    Match.objects.filter(seats__version=version).update(status=Match.Status.RUNNING)

    response = alice_client.delete(f"/api/bots/{hero.id}/")

    assert response.status_code == 409
    assert "being played" in response.json()["error"]
