"""Ladders and leaderboards: GET /api/ladders/, GET /api/ladders/{id}/leaderboard/."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from agon.ladders.models import Ladder, Rating
from competition import ratings
from competition.ratings.glicko import PROVISIONAL_DEVIATION
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
        (1, "strong", "alice"),  # two games each: all provisional, and ranked all the same
        (2, "middle", "bob"),
        (3, "weak", "bob"),
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
    settle(Rating.objects.filter(ladder=ladder_2p), deviation=60.0)

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

    assert seen[0] == [(True, 1), (True, 2)], "a new bot is provisional, and ranked"
    assert seen[-1] == [(False, 1), (False, 2)], "settled by its results"


def settle(rows: Any, *, deviation: float, value: float | None = None) -> None:
    """Give stored ratings a deviation (and a value) as their games would have."""
    for row in rows:
        row.current = ratings.RatingEstimate(row.rating if value is None else value, deviation)
        row.rankable = not ratings.is_provisional(row.current, row.version_games)
        row.save()


def leaderboard(client: APIClient, ladder: Ladder) -> list[tuple[str, int, bool]]:
    rows = client.get(f"/api/ladders/{ladder.id}/leaderboard/").json()["results"]
    return [(row["name"], row["rank"], row["provisional"]) for row in rows]


def test_a_strong_provisional_bot_ranks_above_a_weak_settled_one(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    """Issue 26: random-2 (1397 ± 193, settled) was listed first, above lookahead (1798,
    deviation 117, still provisional), and the terminal called random-2 the leader."""
    random_2, lookahead = make_bot(alice, "random-2"), make_bot(bob, "lookahead")
    play_ranked(ladder_2p, [lookahead, random_2], scores=[9, 1])
    settle(Rating.objects.filter(bot=random_2), value=1397.0, deviation=193 / 1.96)
    settle(Rating.objects.filter(bot=lookahead), value=1798.0, deviation=117.0)

    assert leaderboard(anonymous, ladder_2p) == [("lookahead", 1, True), ("random-2", 2, False)]


def test_one_lucky_win_does_not_put_a_newcomer_first(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    settled, newcomer = make_bot(alice, "settled"), make_bot(bob, "newcomer")
    settle(Rating.objects.filter(bot=settled), value=1600.0, deviation=60.0)
    play_ranked(ladder_2p, [newcomer, settled], scores=[9, 1])

    rows = anonymous.get(f"/api/ladders/{ladder_2p.id}/leaderboard/").json()["results"]

    assert [(row["name"], row["rank"], row["provisional"]) for row in rows] == [
        ("settled", 1, False),
        ("newcomer", 2, True),
    ]
    assert rows[1]["rating"] > 1500, "its win raised its value, not yet its rank"


def test_bots_that_have_played_nothing_are_ranked_by_age(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    first, second = make_bot(alice, "first"), make_bot(bob, "second")

    assert leaderboard(anonymous, ladder_2p) == [("first", 1, True), ("second", 2, True)]
    assert first.id < second.id


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ([1, 1], [("a", 1), ("b", 2)]),  # a draw: equal ratings, ties by age
        ([1, 2], [("b", 1), ("a", 2)]),  # one game
    ],
)
def test_one_game_ranks_both_bots(
    anonymous: APIClient,
    ladder_2p: Ladder,
    make_bot: MakeBot,
    alice: User,
    bob: User,
    scores: list[int],
    expected: list[tuple[str, int]],
) -> None:
    a, b = make_bot(alice, "a"), make_bot(bob, "b")
    play_ranked(ladder_2p, [a, b], scores=scores)

    assert [(name, rank) for name, rank, _ in leaderboard(anonymous, ladder_2p)] == expected


def test_a_clean_sweep_and_all_draws(
    anonymous: APIClient, ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User
) -> None:
    sweeper, swept, drawer = (
        make_bot(owner, name)
        for owner, name in [(alice, "sweeper"), (bob, "swept"), (bob, "drawer")]
    )
    for _ in range(12):
        play_ranked(ladder_2p, [sweeper, swept], scores=[2, 1])
        play_ranked(ladder_2p, [drawer, swept], scores=[1, 1])

    names = [name for name, _, _ in leaderboard(anonymous, ladder_2p)]
    assert names == ["sweeper", "drawer", "swept"]


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
