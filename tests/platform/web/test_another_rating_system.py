"""The rating seam holds: another rating system, one with an uncertainty, named in
`competition.ratings.SYSTEM` in place of the Elo, is what a ranked match stores and what the
leaderboards, the API, the pages and the chart show, with nothing changed outside
`competition.ratings`."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from agon.ladders.models import Rating, RatingChange
from competition import ratings
from competition.ratings import RatingEstimate as RatingValue
from tests.platform.web.conftest import World


class MadeUpSystem:
    """A made-up system: everybody starts at 1000 ± 300; a result halves the uncertainty
    and moves a winner up and a loser down by 10 each; provisional while uncertain."""

    SUMMARY = "a made-up system for the tests"

    def initial(self) -> RatingValue:
        return RatingValue(1000.0, 300.0)

    def update(
        self, rated: Sequence[RatingValue], ranks: Sequence[int], games: Sequence[int]
    ) -> list[RatingValue]:
        best, worst = min(ranks), max(ranks)
        return [
            RatingValue(
                rating.value + (10.0 if rank == best else -10.0 if rank == worst else 0.0),
                (rating.deviation or 0.0) / 2,
            )
            for rating, rank in zip(rated, ranks, strict=True)
        ]

    def is_provisional(self, rating: RatingValue, games: int) -> bool:
        return (rating.deviation or 0.0) >= 110.0

    def display(self, rating: RatingValue) -> str:
        return f"{rating.value:.0f} ± {rating.deviation or 0.0:.0f}"

    def ranking_value(self, rating: RatingValue) -> float:
        return rating.value - (rating.deviation or 0.0)

    def aged(self, rating: RatingValue, idle_seconds: float) -> RatingValue:
        return rating

    def new_version(self, rating: RatingValue) -> RatingValue:
        return rating


@pytest.fixture
def another_system(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings, "SYSTEM", MadeUpSystem())


@pytest.mark.django_db
def test_another_system_is_stored_listed_served_and_shown_everywhere(
    another_system: None, client: Client, anonymous: APIClient, world: World
) -> None:
    winner, loser = sorted(world.bots, key=lambda bot: world.match.ranks[world.bots.index(bot)])
    stored = Rating.objects.get(ladder=world.ladder, bot=winner)
    assert (stored.rating, stored.deviation) == (1010.0, 150.0)
    assert stored.provisional
    change = RatingChange.objects.get(match=world.match, bot=loser)
    assert (change.before, change.deviation_before) == (1000.0, 300.0)
    assert (change.after, change.deviation_after) == (990.0, 150.0)

    board = anonymous.get(f"/api/ladders/{world.ladder.id}/leaderboard/").json()["results"]
    assert [(row["bot"], row["rating"], row["deviation"], row["display"]) for row in board] == [
        (winner.id, 1010.0, 150.0, "1010 ± 150"),
        (loser.id, 990.0, 150.0, "990 ± 150"),
    ]
    assert all(row["provisional"] for row in board)
    bot = anonymous.get(f"/api/bots/{winner.id}/").json()
    [on_ladder] = [r for r in bot["ratings"] if r["ladder"] == world.ladder.id]
    assert (on_ladder["deviation"], on_ladder["display"]) == (150.0, "1010 ± 150")

    ladder_page = client.get(reverse("web:ladder", args=[world.ladder.id])).content.decode()
    ladder_text = re.sub(r"<[^>]+>", "", ladder_page)  # the interval is a span of its own
    assert "1010 ± 150" in ladder_text and "990 ± 150" in ladder_text
    match_page = client.get(reverse("web:match", args=[world.match.id])).content.decode()
    assert "1010 ± 150" in match_page and "(+10)" in match_page and "(-10)" in match_page
    bot_page = client.get(reverse("web:bot", args=[loser.id])).content.decode()
    assert f"match {world.match.id}: 1000 ± 300 → 990 ± 150" in bot_page, "the chart"
    assert "from 1000 ± 300 to 990 ± 150" in bot_page, "the chart's description"
