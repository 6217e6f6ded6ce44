"""The pages read what the API reads, through the apps' selectors: one function for each
read, one leaderboard order, one provisional rule."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from agon.ladders.models import LEADERBOARD_ORDER, Ladder, Rating
from agon.ladders.selectors import LeaderboardListing, order_sql
from agon.matches.models import Match
from agon.web import selectors as web_selectors
from competition import ratings
from tests.platform.conftest import MakeBot
from tests.platform.support import play_ranked
from tests.platform.web.conftest import World

pytestmark = pytest.mark.django_db

APPS_READS = ("ladder_get", "bot_get", "match_get", "leaderboard", "match_list", "seat_of_owner")


@pytest.mark.parametrize("name", APPS_READS)
def test_it_reads_ladders_bots_matches_and_seats_through_the_apps_selectors(name: str) -> None:
    assert not hasattr(web_selectors, name), f"agon.web.selectors.{name} repeats an app's read"


def test_it_writes_the_leaderboard_sql_from_the_one_order() -> None:
    assert LEADERBOARD_ORDER == ("-ranking", "-rating", "id")
    assert order_sql() == "ranking DESC, rating DESC, id"
    assert order_sql(alias="r") == "r.ranking DESC, r.rating DESC, r.id"
    sql, _ = LeaderboardListing(ladder_id=1).page_sql(0, 50)
    assert sql.count("ORDER BY ranking DESC, rating DESC, id") == 1
    assert sql.count("ORDER BY r.ranking DESC, r.rating DESC, r.id") == 1


def test_it_indexes_the_ratings_in_the_leaderboard_order() -> None:
    (index,) = [i for i in Rating._meta.indexes if i.name == "leaderboard"]
    assert list(index.fields) == ["ladder", "active", *LEADERBOARD_ORDER]


@pytest.mark.parametrize("deviation", [350.0, 110.0, 109.9, 40.0])
def test_it_calls_a_rating_provisional_by_one_rule_everywhere(
    ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User, deviation: float
) -> None:
    first, second = make_bot(alice, "first"), make_bot(bob, "second")
    play_ranked(ladder_2p, [first, second], scores=[2, 1])
    Rating.objects.filter(ladder=ladder_2p).update(deviation=deviation)
    games = 1

    rows = LeaderboardListing(ladder_id=ladder_2p.id)[:50]
    stored = Rating.objects.filter(ladder=ladder_2p)
    rule = {ratings.is_provisional(rating.current, games) for rating in stored}

    assert {row.provisional for row in rows} == rule
    assert {rating.provisional for rating in stored} == rule


def _ladder_rows(page: str) -> list[tuple[str, str, str, str]]:
    """Rank, bot name, owner and version of each row of a leaderboard page."""
    return re.findall(
        r"<tr[^>]*>\s*<td>(\d+)</td>"
        r"\s*<td class=\"bot-cell\"><a href=\"/bots/\d+/\">([^<]+)</a> <span class=\"owner\">"
        r"by ([^<]+)</span>.*?<td class=\"wide-only\">v(\d+)</td>",
        page,
        flags=re.DOTALL,
    )


def test_it_shows_the_leaderboard_as_the_api_lists_it_ties_broken_by_id(
    client: Client, anonymous: APIClient, world: World, make_bot: MakeBot, alice: User
) -> None:
    more = [make_bot(alice, f"tied{i}") for i in range(3)]
    play_ranked(world.ladder, more[:2], scores=[1, 1])
    stored: QuerySet[Rating] = Rating.objects.filter(ladder=world.ladder)
    stored.filter(bot__in=more).update(rating=1500.0)

    page = client.get(reverse("web:ladder", args=[world.ladder.id])).content.decode()
    api = anonymous.get(f"/api/ladders/{world.ladder.id}/leaderboard/").json()["results"]

    assert _ladder_rows(page) == [
        (str(row["rank"]), row["name"], row["owner"], str(row["version"])) for row in api
    ]
    assert page.count('<tr class="provisional">') == sum(row["provisional"] for row in api)


def test_it_lists_the_last_finished_matches_first_on_the_home_page(
    ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    bots = [make_bot(alice, "first"), make_bot(bob, "second")]
    older, newer = (play_ranked(ladder_2p, bots, scores=[2, 1]) for _ in range(2))
    assert older.finished is not None and newer.finished is not None
    Match.objects.filter(id=older.id).update(finished=newer.finished + timedelta(minutes=1))

    assert [match.id for match in web_selectors.recent_matches(limit=2)] == [older.id, newer.id]
    assert [match.id for match in web_selectors.live_matches(limit=2)] == []
