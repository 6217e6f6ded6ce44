"""The lists stay fast as the tables grow: a constant, small number of queries per page,
and pages read in order from the indexes the models define.

The test database is tiny, so PostgreSQL would rightly scan whole tables; plans are
checked with sequential scans, bitmap scans and sorts priced out, which asks whether an
index can serve the query in its order at all. (Measured on 10,000 bots and 200,000
matches, these are the plans PostgreSQL picks by itself.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import QuerySet
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from agon.bots.models import Bot
from agon.bots.selectors import bot_list
from agon.ladders.models import Ladder
from agon.ladders.selectors import LeaderboardListing
from agon.listings import Listing
from agon.matches.models import Match
from agon.matches.selectors import MatchListing, match_seats
from agon.settings.base import database
from tests.platform.conftest import MakeBot
from tests.platform.support import play_ranked

pytestmark = pytest.mark.django_db


def plan_of(queryset: QuerySet[Any]) -> str:
    return plan_of_sql(*queryset[:50].query.sql_with_params())


def page_plan(listing: Listing[Any]) -> str:
    return plan_of_sql(*listing.page_sql(0, 50))


def plan_of_sql(sql: str, params: Sequence[Any]) -> str:
    with connection.cursor() as cursor:
        for setting in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
            cursor.execute(f"SET LOCAL {setting} = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        return "\n".join(row[0] for row in cursor.fetchall())


def queries_for(client: APIClient, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.fixture
def busy_ladder(ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User) -> Ladder:
    bots = [make_bot(owner, f"{owner.username}{i}") for i in range(4) for owner in (alice, bob)]
    for first, second in zip(bots, bots[1:] + bots[:1], strict=True):
        play_ranked(ladder_2p, [first, second], scores=[2, 1])
    return ladder_2p


URLS: dict[str, Callable[[Ladder], str]] = {
    "bots": lambda ladder: "/api/bots/",
    "ladders": lambda ladder: "/api/ladders/",
    "leaderboard": lambda ladder: f"/api/ladders/{ladder.id}/leaderboard/",
    "matches": lambda ladder: "/api/matches/",
    "matches of a ladder": lambda ladder: f"/api/matches/?ladder={ladder.id}",
}


@pytest.mark.parametrize("url", URLS.values(), ids=URLS.keys())
def test_a_page_takes_the_same_few_queries_however_much_is_on_it(
    anonymous: APIClient,
    ladder_2p: Ladder,
    make_bot: MakeBot,
    alice: User,
    bob: User,
    url: Callable[[Ladder], str],
) -> None:
    first, second = make_bot(alice, "first"), make_bot(bob, "second")
    play_ranked(ladder_2p, [first, second], scores=[1, 2])
    few = queries_for(anonymous, url(ladder_2p))

    for i in range(10):
        play_ranked(ladder_2p, [make_bot(alice, f"more{i}"), first], scores=[1, 2])

    assert queries_for(anonymous, url(ladder_2p)) == few <= 5


def test_the_leaderboard_reads_the_leaderboard_index_in_order(busy_ladder: Ladder) -> None:
    plan = page_plan(LeaderboardListing(ladder_id=busy_ladder.id)).splitlines()

    assert any("using leaderboard on ladders_rating" in line for line in plan)
    # The page's keys come in order; only the page's own rows, joined, are sorted again.
    sorts = [n for n, line in enumerate(plan) if line.lstrip(" ->").startswith("Sort  (")]
    assert sorts in ([], [0])


def test_the_newest_matches_come_from_the_primary_key_in_order(busy_ladder: Ladder) -> None:
    plan = page_plan(MatchListing(viewer=None))

    assert "Index Scan Backward using matches_match_pkey" in plan
    assert "Sort" not in plan


def test_a_signed_in_users_matches_come_in_order_without_a_scan_of_the_matches(
    busy_ladder: Ladder, alice: User
) -> None:
    # Its private matches are found from the user's own entries, not the matches table.
    plan = page_plan(MatchListing(viewer=alice))

    assert "Index Scan Backward using matches_match_pkey" in plan
    assert "Seq Scan on matches_match" not in plan
    assert "Sort" not in plan


def test_a_ladder_s_matches_come_from_their_index_in_order(busy_ladder: Ladder) -> None:
    plan = page_plan(MatchListing(viewer=None, ladder_id=busy_ladder.id))

    assert "match_ladder_recent" in plan
    assert "Sort" not in plan


def test_a_game_s_matches_come_from_their_index_in_order(busy_ladder: Ladder) -> None:
    plan = page_plan(MatchListing(viewer=None, game="akropolis"))

    assert "match_game_recent" in plan
    assert "Sort" not in plan


def test_a_bot_s_matches_are_found_through_its_versions_seats(busy_ladder: Ladder) -> None:
    bot = Bot.objects.order_by("id").first()
    assert bot is not None

    plan = page_plan(MatchListing(viewer=None, bot_id=bot.id))

    # Through an index on the seats' version (the foreign key's or `seat_version_match`).
    assert "Index Cond: (version_id = " in plan
    assert "Seq Scan" not in plan


def test_a_page_s_seats_are_read_by_their_match_and_joined_by_key(busy_ladder: Ladder) -> None:
    keys = list(Match.objects.values_list("id", flat=True)[:50])
    with CaptureQueriesContext(connection) as queries:
        match_seats(keys)
    (query,) = queries.captured_queries  # with its values in place

    plan = plan_of_sql(query["sql"], [])

    assert "Index Cond: (match_id = ANY" in plan or "Index Cond: (match_id = " in plan
    assert "Hash" not in plan


def test_the_bots_come_from_the_primary_key_in_order(busy_ladder: Ladder) -> None:
    plan = plan_of(bot_list())

    assert "Index Scan using bots_bot_pkey" in plan
    assert "Sort" not in plan


def test_the_planner_prices_a_random_read_as_for_a_database_in_memory() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SHOW random_page_cost")
        (cost,) = cursor.fetchone()

    assert float(cost) == 1.1


def test_only_postgresql_is_told_the_price_of_a_random_read() -> None:
    assert "OPTIONS" not in database("sqlite:///agon.sqlite3")
    postgres = database("postgres://agon@db:5432/agon")
    assert postgres["OPTIONS"] == {"options": "-c random_page_cost=1.1", "prepare_threshold": 5}
