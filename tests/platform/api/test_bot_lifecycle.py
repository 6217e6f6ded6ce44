"""A bot in its owner's hands through the API: renamed, retired (off the ladders, no new
match, history kept), reactivated, deleted while it has played nothing but its
validation; and nobody else doing any of it."""

from __future__ import annotations

from random import Random

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from rest_framework.test import APIClient

from agon.bots.lifecycle import bot_retire
from agon.bots.models import Bot, BotVersion
from agon.ladders.models import Ladder, Rating
from agon.ladders.services import challenge_create, matchmaking_round
from agon.matches.models import Match
from tests.platform.conftest import MakeBot
from tests.platform.support import play_ranked, py_upload
from tests.platform.tournaments.support import enter, open_tournament

pytestmark = pytest.mark.django_db


def ladder_2p() -> Ladder:
    return Ladder.objects.get(game="akropolis", players=2)


def test_the_owner_renames_a_bot_under_the_rules_of_a_new_name(
    alice_client: APIClient, make_bot: MakeBot, alice: User
) -> None:
    ant = make_bot(alice, "ant")
    make_bot(alice, "bee")

    renamed = alice_client.patch(f"/api/bots/{ant.id}/", {"name": "Anvil"}, format="json")
    assert renamed.status_code == 200
    assert renamed.json()["name"] == "Anvil"
    assert Bot.objects.get(id=ant.id).name == "Anvil"
    for taken, said in (
        ("bee", "you already have a bot called 'bee'"),
        ("b\u202ee", "control or formatting characters"),
        ("a/b", "may not hold @ or /"),
    ):
        refused = alice_client.patch(f"/api/bots/{ant.id}/", {"name": taken}, format="json")
        assert refused.status_code == 400, taken
        assert said in refused.json()["error"]
    assert Bot.objects.get(id=ant.id).name == "Anvil"
    empty = alice_client.patch(f"/api/bots/{ant.id}/", {}, format="json")
    assert empty.status_code == 400
    assert "give name, open_to_events or retired" in empty.json()["error"]


def test_nobody_but_the_owner_renames_retires_or_deletes(
    bob_client: APIClient, anonymous: APIClient, make_bot: MakeBot, alice: User
) -> None:
    ant = make_bot(alice, "ant")
    for client, status in ((bob_client, 403), (anonymous, 401)):
        for change in ({"name": "mine"}, {"retired": True}):
            assert client.patch(f"/api/bots/{ant.id}/", change, format="json").status_code == status
        assert client.delete(f"/api/bots/{ant.id}/").status_code == status
    bot = Bot.objects.get(id=ant.id)
    assert (bot.name, bot.retired) == ("ant", None)


def test_a_retired_bot_leaves_matchmaking_and_the_board_and_comes_back_as_it_was(
    alice_client: APIClient, anonymous: APIClient, make_bot: MakeBot, alice: User, bob: User
) -> None:
    ant, bee = make_bot(alice, "ant"), make_bot(bob, "bee")
    ladder = ladder_2p()
    play_ranked(ladder, [ant, bee], [10, 5])
    before = Rating.objects.get(ladder=ladder, bot=ant)

    retired = alice_client.patch(f"/api/bots/{ant.id}/", {"retired": True}, format="json")
    assert retired.status_code == 200
    assert retired.json()["retired"] is not None
    board = anonymous.get(f"/api/ladders/{ladder.id}/leaderboard/").json()["results"]
    assert [row["name"] for row in board] == ["bee"]
    Match.objects.all().delete()
    for _ in range(3):
        assert not [m for m in matchmaking_round(rng=Random(1)) if ant.id in bot_ids(m)]
    # Its history stays; a new version, a tournament or a challenge is refused.
    assert anonymous.get(f"/api/bots/{ant.id}/").status_code == 200
    upload = alice_client.post(
        f"/api/bots/{ant.id}/versions/", {"file": py_upload()}, format="multipart"
    )
    assert upload.status_code == 400
    assert "ant is retired: reactivate it" in upload.json()["error"]

    back = alice_client.patch(f"/api/bots/{ant.id}/", {"retired": False}, format="json")
    assert back.status_code == 200 and back.json()["retired"] is None
    after = Rating.objects.get(ladder=ladder, bot=ant)
    assert (after.active, after.current, after.games) == (True, before.current, before.games)
    board = anonymous.get(f"/api/ladders/{ladder.id}/leaderboard/").json()["results"]
    assert {row["name"] for row in board} == {"ant", "bee"}


def bot_ids(match: Match) -> set[int]:
    return {seat.version.bot_id for seat in match.seats.all() if seat.version is not None}


def test_a_bot_that_played_only_its_validation_is_deleted_with_its_files(
    alice_client: APIClient, make_bot: MakeBot, alice: User
) -> None:
    ant = make_bot(alice, "ant")
    archive = BotVersion.objects.get(bot=ant).archive.name
    assert default_storage.exists(archive)

    with_callbacks = alice_client.delete(f"/api/bots/{ant.id}/")
    assert with_callbacks.status_code == 204
    assert not Bot.objects.filter(id=ant.id).exists()
    assert not BotVersion.objects.filter(bot_id=ant.id).exists()
    assert not Match.objects.filter(kind=Match.Kind.VALIDATION).exists()
    assert alice_client.get(f"/api/bots/{ant.id}/").status_code == 404


def test_a_bot_in_others_histories_is_not_deleted_but_retired(
    alice_client: APIClient, make_bot: MakeBot, alice: User, bob: User
) -> None:
    ant, bee = make_bot(alice, "ant"), make_bot(bob, "bee")
    play_ranked(ladder_2p(), [ant, bee], [10, 5])

    refused = alice_client.delete(f"/api/bots/{ant.id}/")
    assert refused.status_code == 409
    assert refused.json()["error"] == (
        "ant has played matches that other bots' histories and replays keep: retire it "
        "instead (it leaves the ladders; its history stays)"
    )
    assert Bot.objects.filter(id=ant.id).exists()


def test_a_bot_being_validated_waits_for_its_verdict_before_deletion(
    alice_client: APIClient, make_bot: MakeBot, alice: User
) -> None:
    ant = make_bot(alice, "ant", active=False)
    refused = alice_client.delete(f"/api/bots/{ant.id}/")
    assert refused.status_code == 409
    assert "being validated" in refused.json()["error"]


def test_a_retired_bot_is_entered_in_no_tournament_and_challenged_by_nobody(
    make_bot: MakeBot, alice: User, bob: User
) -> None:
    ant, bee = make_bot(alice, "ant"), make_bot(bob, "bee")
    bot_retire(bot=ant)
    cup = open_tournament(alice)
    with pytest.raises(ValidationError, match="the bot 'ant' is retired"):
        enter(cup, [ant])
    with pytest.raises(ValidationError, match="the bot 'ant' is retired"):
        challenge_create(user=bob, ladder=ladder_2p(), bot_ids=[bee.id, ant.id])
