"""A shared first place is a tie, not a win: in the ratings, the leaderboard, a bot's page
and the API (a 139-139 finish used to count as a win for both)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from agon.bots.models import Bot
from agon.ladders.models import Ladder, Rating
from agon.web.selectors import bot_record
from tests.platform.conftest import MakeBot
from tests.platform.support import finish_with, latest_version, made_up_record, ranked_match

pytestmark = pytest.mark.django_db

shared_firsts_migration = importlib.import_module("agon.ladders.migrations.0005_shared_firsts")


def play(ladder: Ladder, bots: list[Bot], scores: list[int]) -> None:
    match = ranked_match(ladder, [latest_version(bot) for bot in bots])
    finish_with(match, made_up_record(match, scores=scores))


def standing(ladder: Ladder, bot: Bot) -> tuple[int, int, int]:
    rating = Rating.objects.get(ladder=ladder, bot=bot)
    return rating.games, rating.wins, rating.shared_firsts


@pytest.fixture
def pair(make_bot: MakeBot, alice: User, bob: User) -> list[Bot]:
    return [make_bot(alice, "athena"), make_bot(bob, "hermes")]


def test_a_tie_for_first_is_a_shared_first_place_for_both(
    ladder_2p: Ladder, pair: list[Bot], anonymous: APIClient, client: Client
) -> None:
    play(ladder_2p, pair, [139, 139])
    play(ladder_2p, pair, [140, 139])
    assert standing(ladder_2p, pair[0]) == (2, 1, 1)
    assert standing(ladder_2p, pair[1]) == (2, 0, 1)

    rows = anonymous.get(f"/api/ladders/{ladder_2p.id}/leaderboard/").json()["results"]
    assert {(row["name"], row["wins"], row["shared_firsts"]) for row in rows} == {
        ("athena", 1, 1),
        ("hermes", 0, 1),
    }
    ratings = anonymous.get(f"/api/bots/{pair[1].id}/").json()["ratings"]
    assert [(r["wins"], r["shared_firsts"]) for r in ratings if r["games"]] == [(0, 1)]

    record = bot_record(bot=pair[1])
    assert (record.wins, record.shared_firsts) == (1, 1)  # its validation match, and the tie
    page = client.get(f"/bots/{pair[1].id}/").content.decode()
    assert "2 games, 0 wins, 1 shared first place" in page


def test_the_migration_moves_the_ties_counted_as_wins(ladder_2p: Ladder, pair: list[Bot]) -> None:
    play(ladder_2p, pair, [139, 139])
    play(ladder_2p, pair, [12, 30])
    # As the code before counted them: a shared first was a win.
    Rating.objects.filter(bot=pair[0]).update(wins=1, shared_firsts=0)
    Rating.objects.filter(bot=pair[1]).update(wins=2, shared_firsts=0)

    shared_firsts_migration.move_ties_out_of_wins(apps, None)

    assert standing(ladder_2p, pair[0]) == (2, 0, 1)
    assert standing(ladder_2p, pair[1]) == (2, 1, 1)


def test_a_tie_is_a_shared_place_on_the_match_page_and_in_the_match_list(
    ladder_2p: Ladder, pair: list[Bot], client: Client
) -> None:
    """And half a point each way in the ratings: two equal bots that tie stay equal."""
    match = ranked_match(ladder_2p, [latest_version(bot) for bot in pair])
    finish_with(match, made_up_record(match, scores=[139, 139]))
    first, second = (Rating.objects.get(ladder=ladder_2p, bot=bot) for bot in pair)
    assert first.rating == second.rating == 1500.0

    page = client.get(f"/matches/{match.id}/").content.decode()
    assert page.count("<td>=1st</td>") == 2
    listing = client.get("/matches/").content.decode()
    assert listing.count("=1st, 139") == 2
