"""Ladders and leaderboards: GET /api/ladders/, GET /api/ladders/{id}/leaderboard/."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from agon.ladders.models import Ladder, Rating
from agon.ratings.glicko import PROVISIONAL_DEVIATION
from tests.platform.conftest import MakeBot
from tests.platform.support import play_ranked

pytestmark = pytest.mark.django_db


def test_anybody_lists_the_ladders_with_how_many_bots_are_rated_on_each(
    anonymous: APIClient, ladders: list[Ladder], make_bot: MakeBot, alice: User
) -> None:
    make_bot(alice, "one")
    make_bot(alice, "two", active=False)

    response = anonymous.get("/api/ladders/")

    assert response.status_code == 200
    listed = {ladder["name"]: ladder for ladder in response.json()["results"]}
    assert set(listed) == {ladder.name for ladder in ladders}
    assert listed["Akropolis 2p"] == {
        "id": Ladder.objects.get(name="Akropolis 2p").id,
        "name": "Akropolis 2p",
        "game": "akropolis",
        "players": 2,
        "options": {},
        "active": True,
        "bots": 1,
    }


def test_the_leaderboard_ranks_bots_by_rating(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    strong, middle, weak = make_bot(alice, "strong"), make_bot(bob, "middle"), make_bot(bob, "weak")
    play_ranked(ladder_2p, [strong, middle], scores=[50, 40])
    play_ranked(ladder_2p, [weak, strong], scores=[10, 60])
    play_ranked(ladder_2p, [middle, weak], scores=[45, 20])

    response = anonymous.get(f"/api/ladders/{ladder_2p.id}/leaderboard/")

    assert response.status_code == 200
    rows = response.json()["results"]
    assert [(row["rank"], row["name"], row["owner"]) for row in rows] == [
        (None, "strong", "alice"),  # two games each: all provisional, none ranked yet
        (None, "middle", "bob"),
        (None, "weak", "bob"),
    ]
    assert rows[0]["bot"] == strong.id
    assert rows[0]["rating"] > rows[1]["rating"] > rows[2]["rating"]
    assert [(row["games"], row["wins"]) for row in rows] == [(2, 2), (2, 1), (2, 0)]
    assert all(row["provisional"] and row["version"] == 1 for row in rows)


def test_ranks_go_on_from_page_to_page(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User
) -> None:
    bots = [make_bot(alice, f"bot{i}") for i in range(5)]
    for winner, loser in itertools.pairwise(bots):
        play_ranked(ladder_2p, [winner, loser], scores=[2, 1])
    Rating.objects.filter(ladder=ladder_2p).update(deviation=60.0, rankable=True)

    url = f"/api/ladders/{ladder_2p.id}/leaderboard/?page_size=2"
    pages = [anonymous.get(f"{url}&page={page}").json() for page in (1, 2, 3)]

    assert [[row["rank"] for row in page["results"]] for page in pages] == [[1, 2], [3, 4], [5]]
    assert pages[0]["count"] == 5
    ratings = [row["rating"] for page in pages for row in page["results"]]
    assert ratings == sorted(ratings, reverse=True)


def test_a_bot_is_provisional_until_its_interval_is_narrow_then_ranked(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    first, second = make_bot(alice, "first"), make_bot(bob, "second")
    url = f"/api/ladders/{ladder_2p.id}/leaderboard/"
    seen = []
    for _ in range(30):
        play_ranked(ladder_2p, [first, second], scores=[1, 1])
        rows = anonymous.get(url).json()["results"]
        seen.append([(row["provisional"], row["rank"]) for row in rows])
        for row in rows:
            assert row["provisional"] == (row["deviation"] >= PROVISIONAL_DEVIATION)
            low, high = (row["rating"] + side * 1.96 * row["deviation"] for side in (-1, 1))
            assert row["display"] == f"{row['rating']:.0f} ± {1.96 * row['deviation']:.0f}"
            assert low < row["rating"] < high

    assert seen[0] == [(True, None), (True, None)], "a new bot is provisional and unranked"
    assert seen[-1] == [(False, 1), (False, 2)], "settled by its results, then ranked"


def test_ranked_bots_come_first_then_the_provisional_by_rating(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    settled, newcomer = make_bot(alice, "settled"), make_bot(bob, "newcomer")
    play_ranked(ladder_2p, [newcomer, settled], scores=[9, 1])
    Rating.objects.filter(bot=settled).update(deviation=60.0, rankable=True)

    rows = anonymous.get(f"/api/ladders/{ladder_2p.id}/leaderboard/").json()["results"]

    assert [(row["name"], row["rank"], row["provisional"]) for row in rows] == [
        ("settled", 1, False),
        ("newcomer", None, True),
    ]
    assert rows[1]["rating"] > rows[0]["rating"]


def test_bots_without_an_active_version_are_not_on_the_leaderboard(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User
) -> None:
    make_bot(alice, "validating", active=False)

    body = anonymous.get(f"/api/ladders/{ladder_2p.id}/leaderboard/").json()

    assert body["count"] == 0
    assert body["results"] == []


def test_the_leaderboard_of_an_unknown_ladder_is_404(anonymous: APIClient, db: None) -> None:
    response = anonymous.get("/api/ladders/999999/leaderboard/")

    assert response.status_code == 404
    assert response.json()["error"] == "there is no ladder 999999"
