"""A bot's detail and a bot's matches, the two reads that differ for each of a site's
bots (so the list cache rarely has them): a few plain statements each, correct counts
and pages, and plans that follow the indexes on PostgreSQL and on SQLite (these tests
run on SQLite too: tests/platform/test_private_events_on_sqlite.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from agon.api import pagination
from agon.api.bots import bot_detail_json
from agon.api.matches import MatchSerializer
from agon.bots.models import Bot
from agon.bots.selectors import bot_detail
from agon.ladders.models import Ladder
from agon.matches.listed import listed_entries_fill
from agon.matches.models import Match
from agon.matches.selectors import MatchListing
from tests.platform.conftest import MakeBot, client_for
from tests.platform.support import fail_validation, latest_version, play_ranked, ranked_match

pytestmark = pytest.mark.django_db


def statements(client: APIClient, url: str) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code in (200, 404), response.content
    return response.status_code, [query["sql"] for query in queries.captured_queries]


def test_a_bot_is_read_in_two_statements_with_its_versions_and_ratings(
    anonymous: APIClient, make_bot: MakeBot, alice: User, bob: User, ladder_2p: Ladder
) -> None:
    ant, bee = make_bot(alice, "ant"), make_bot(bob, "bee")
    play_ranked(ladder_2p, [ant, bee], scores=[2, 1])

    status, sql = statements(anonymous, f"/api/bots/{ant.id}/")

    assert status == 200 and len(sql) == 2
    body = anonymous.get(f"/api/bots/{ant.id}/").json()
    assert [version["number"] for version in body["versions"]] == [1]
    rated = {rating["ladder_name"]: rating["games"] for rating in body["ratings"]}
    assert rated["Akropolis 2p"] == 1 and len(rated) == 3


def test_a_bot_without_a_version_or_rating_and_a_missing_bot(
    make_bot: MakeBot, alice: User
) -> None:
    bot = make_bot(alice, "crasher", active=False)
    fail_validation(latest_version(bot), fault="crash")
    bare = Bot.objects.create(owner=alice, name="bare", game="akropolis")

    shown = bot_detail(bot_id=bare.id)

    assert shown is not None and shown.versions == [] and shown.ratings == []
    assert bot_detail_json(shown, owner=False)["active_version"] is None
    crasher = bot_detail(bot_id=bot.id)
    assert crasher is not None and crasher.active_version is None
    assert bot_detail(bot_id=bare.id + 1000) is None


def test_the_owner_and_a_stranger_never_see_each_other_s_view(
    anonymous: APIClient,
    alice_client: APIClient,
    bob_client: APIClient,
    make_bot: MakeBot,
    alice: User,
) -> None:
    bot = make_bot(alice, "crasher", active=False)
    fail_validation(latest_version(bot), fault="crash")
    url = f"/api/bots/{bot.id}/"

    # Asked in turn, each read is its requester's: nothing one is shown is kept for another.
    for _ in range(2):
        assert alice_client.get(url).json()["versions"][0]["reason"]
        assert bob_client.get(url).json()["versions"][0]["reason"] is None
        assert anonymous.get(url).json()["versions"][0]["reason"] is None


@pytest.fixture
def busy(ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User) -> list[Bot]:
    """Five bots; the first plays seven ranked matches, the others one or two."""
    bots = [make_bot(alice if i % 2 else bob, f"b{i}") for i in range(5)]
    for opponent in bots[1:] + bots[1:4]:
        play_ranked(ladder_2p, [bots[0], opponent], scores=[2, 1])
    return bots


def test_a_bot_s_finished_matches_come_with_their_count_in_one_statement(
    anonymous: APIClient, busy: list[Bot]
) -> None:
    first = busy[0]
    mine = Match.objects.filter(seats__version__bot=first).distinct().order_by("-id")
    ids = list(mine.values_list("id", flat=True))
    assert len(ids) == 8  # its validation match and seven ranked ones

    status, sql = statements(anonymous, f"/api/matches/?bot={first.id}&page_size=3")
    page = anonymous.get(f"/api/matches/?bot={first.id}&page_size=3").json()
    last = anonymous.get(f"/api/matches/?bot={first.id}&page_size=3&page=3").json()

    assert status == 200 and len(sql) == 1 and "count(*)" in sql[0]  # entries as written
    assert page["count"] == last["count"] == 8
    assert [match["id"] for match in page["results"]] == ids[:3]
    assert [match["id"] for match in last["results"]] == ids[6:]
    assert last["next"] is None and page["next"].endswith("page=2&page_size=3")
    assert {seat["bot"] for seat in page["results"][0]["seats"]} >= {first.id}


def test_a_page_past_the_end_is_404_and_a_bot_without_matches_an_empty_page(
    anonymous: APIClient, busy: list[Bot], alice: User
) -> None:
    idle = Bot.objects.create(owner=alice, name="idle", game="akropolis")

    assert anonymous.get(f"/api/matches/?bot={busy[0].id}&page_size=3&page=4").status_code == 404
    assert anonymous.get(f"/api/matches/?bot={busy[0].id}&page=2").status_code == 404
    empty = anonymous.get(f"/api/matches/?bot={idle.id}")
    assert empty.status_code == 200
    assert empty.json()["count"] == 0 and empty.json()["results"] == []
    assert anonymous.get(f"/api/matches/?bot={idle.id}&page=2").status_code == 404


def test_the_page_and_count_statement_follows_the_indexes(busy: list[Bot]) -> None:
    listing = MatchListing(viewer=None, bot_id=busy[0].id)
    with CaptureQueriesContext(connection) as queries:
        listing.page_and_count(0, 50)
    sql = queries.captured_queries[0]["sql"]  # with its values in place

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            for setting in ("enable_seqscan", "enable_bitmapscan"):
                cursor.execute(f"SET LOCAL {setting} = off")
            cursor.execute(f"EXPLAIN {sql}")
            plan = "\n".join(row[0] for row in cursor.fetchall())
            # The bot's seats through an index on their version, the matches by key.
            assert "Index Cond: (version_id = " in plan
            assert "Seq Scan" not in plan
        else:
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
            plan = "\n".join(str(row[-1]) for row in cursor.fetchall())
            # The bot's seats from `seat_version_match` alone, the matches by key.
            assert "SEARCH s USING COVERING INDEX seat_version_match" in plan
            scans = [line for line in plan.splitlines() if line.startswith("SCAN")]
            assert scans == ["SCAN page"]  # the page's 50 keys, nothing of the tables


@pytest.fixture
def no_counts_kept() -> Iterator[None]:
    pagination.COUNTS.clear()
    yield
    pagination.COUNTS.clear()


@pytest.mark.usefixtures("no_counts_kept")
def test_a_long_list_of_a_bot_s_matches_keeps_its_count_and_reads_pages_apart(
    anonymous: APIClient, busy: list[Bot], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pagination, "LONG_LIST", 8)  # the first bot's matches are long
    url = f"/api/matches/?bot={busy[0].id}&page_size=3"

    _, first = statements(anonymous, url)
    _, then = statements(anonymous, f"{url}&page=2")
    _, short = statements(anonymous, f"/api/matches/?bot={busy[1].id}")

    assert len(first) == 1 and "count(*)" in first[0]  # counted with its page, then kept
    assert len(then) == 1 and "count(*)" not in then[0]
    assert anonymous.get(f"{url}&page=2").json()["count"] == 8
    assert len(short) == 1 and "count(*)" in short[0]  # two matches: counted each time


# --- a page of matches joined from the entries written as they finished ----------------


def test_a_page_of_finished_matches_is_their_entries_joined_in_one_statement(
    anonymous: APIClient, busy: list[Bot], ladder_2p: Ladder
) -> None:
    url = f"/api/matches/?bot={busy[0].id}&page_size=3&page=2"
    ranked_match(ladder_2p, [latest_version(bot) for bot in busy[:2]])  # queued

    _, sql = statements(anonymous, url)
    response = anonymous.get(url)
    _, with_queued = statements(anonymous, f"/api/matches/?bot={busy[0].id}&page_size=3")

    assert len(sql) == 1 and "count(*)" in sql[0]  # three finished matches: no seats read
    ids = Match.objects.filter(seats__version__bot=busy[0]).order_by("-id").values_list("id")
    page = [Match.objects.get(id=match_id) for (match_id,) in ids[3:6]]
    assert all(match.listed for match in page)  # written as each finished
    expected = {
        "count": 9,
        "next": f"http://testserver/api/matches/?bot={busy[0].id}&page=3&page_size=3",
        "previous": f"http://testserver/api/matches/?bot={busy[0].id}&page_size=3",
        "results": MatchSerializer(page, many=True).data,
    }
    assert response["Content-Type"] == "application/json"
    assert response.content == JSONRenderer().render(expected)
    assert len(with_queued) == 2  # a queued match's entry is made as it is read


def test_a_renamed_bot_shows_its_new_name_in_the_entries_at_once(
    anonymous: APIClient, busy: list[Bot], bob_client: APIClient
) -> None:
    url = f"/api/matches/?bot={busy[0].id}"
    before = anonymous.get(url).json()["results"]
    assert any(seat["bot_label"] == "bob/b0@v1" for seat in before[0]["seats"])

    renamed = bob_client.patch(f"/api/bots/{busy[0].id}/", {"name": "b9"}, format="json")
    after = anonymous.get(url).json()["results"]

    assert renamed.status_code == 200
    labels = {seat["bot_label"] for match in after for seat in match["seats"]}
    assert "bob/b9@v1" in labels and "bob/b0@v1" not in labels
    assert len(after) == len(before)
    theirs = anonymous.get(f"/api/matches/?bot={busy[1].id}").json()["results"]
    assert "bob/b9@v1" in {seat["bot_label"] for match in theirs for seat in match["seats"]}


def test_a_private_match_s_entry_reaches_only_who_may_see_it(
    anonymous: APIClient, busy: list[Bot], bob: User
) -> None:
    hidden = Match.objects.filter(seats__version__bot=busy[0]).order_by("-id").first()
    assert hidden is not None and hidden.listed
    Match.objects.filter(id=hidden.id).update(private=True, created_by=bob)
    url = f"/api/matches/?bot={busy[0].id}"

    owners = client_for(bob).get(url).json()
    strangers = anonymous.get(url).json()

    assert hidden.id in [match["id"] for match in owners["results"]]
    assert hidden.id not in [match["id"] for match in strangers["results"]]
    assert strangers["count"] == owners["count"] - 1 == 7


def test_entries_missing_are_made_as_read_and_filled_once(
    anonymous: APIClient, busy: list[Bot]
) -> None:
    url = f"/api/matches/?bot={busy[0].id}"
    written = anonymous.get(url).content
    Match.objects.update(listed="")  # finished before entries were kept

    _, made = statements(anonymous, url)
    assert anonymous.get(url).content == written and len(made) == 2
    assert listed_entries_fill() == Match.objects.filter(status=Match.Status.FINISHED).count()
    _, joined = statements(anonymous, url)
    assert anonymous.get(url).content == written and len(joined) == 1


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite has no prepared statements to keep"
)
def test_a_bot_s_matches_and_detail_are_prepared_on_the_server_once(
    anonymous: APIClient, busy: list[Bot]
) -> None:
    for bot in busy[:3]:
        assert anonymous.get(f"/api/matches/?bot={bot.id}").status_code == 200
        assert anonymous.get(f"/api/bots/{bot.id}/").status_code == 200

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    page = [sql for sql in prepared if "count(*)" in sql and "v.bot_id = $" in sql]
    detail = [sql for sql in prepared if "WHERE b.id = $1" in sql]
    assert len(page) == len(detail) == 1  # one each for the three bots
