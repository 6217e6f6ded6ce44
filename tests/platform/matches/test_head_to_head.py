"""A bot's record against each opponent: on its page and at /api/bots/{id}/head-to-head/,
from one SQL statement however many opponents it met; shared places are draws."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from agon.bots.models import Bot
from agon.ladders.models import Ladder, RatingChange
from agon.matches.models import Match
from agon.matches.selectors import HeadToHead, head_to_head
from agon.matches.services import match_create
from agon.web.charts import rating_chart
from tests.platform.conftest import MakeBot
from tests.platform.support import finish_match, latest_version, play_ranked, ranked_match

pytestmark = pytest.mark.django_db


def ladder(players: int) -> Ladder:
    return Ladder.objects.get(game="akropolis", players=players)


@pytest.fixture
def athena(make_bot: MakeBot, alice: User) -> Bot:
    return make_bot(alice, "athena")


@pytest.fixture
def opponents(make_bot: MakeBot, bob: User) -> Callable[[int], list[Bot]]:
    def make(count: int) -> list[Bot]:
        return [make_bot(bob, f"rival-{index}") for index in range(count)]

    return make


def row(rows: list[HeadToHead], bot: Bot) -> tuple[int, int, int, int]:
    found = next(r for r in rows if r.bot == bot.id)
    return found.wins, found.draws, found.losses, found.games


def test_it_counts_wins_draws_and_losses_against_each_opponent(
    athena: Bot, make_bot: MakeBot, bob: User
) -> None:
    hermes, zeus = make_bot(bob, "hermes"), make_bot(bob, "zeus")
    play_ranked(ladder(2), [athena, hermes], [10, 5])
    play_ranked(ladder(2), [athena, hermes], [5, 5])  # a shared place: a draw
    play_ranked(ladder(2), [hermes, athena], [9, 3])
    last = play_ranked(ladder(3), [athena, hermes, zeus], [7, 9, 7])
    ranked_match(ladder(2), [latest_version(athena), latest_version(zeus)])  # queued: no count

    rows = head_to_head(bot=athena)
    assert [r.name for r in rows] == ["hermes", "zeus"]  # the most played first
    assert row(rows, hermes) == (1, 1, 2, 4)
    assert row(rows, zeus) == (0, 1, 0, 1)
    assert rows[0].owner == "bob"
    assert rows[1].last_played == last.finished
    assert row(head_to_head(bot=hermes), athena) == (2, 1, 1, 4)
    assert head_to_head(bot=zeus)[0].name in {"athena", "hermes"}


@pytest.mark.parametrize(
    "kind", [Match.Kind.CHALLENGE, Match.Kind.TOURNAMENT, Match.Kind.VERSION_TEST]
)
def test_it_counts_ranked_games_only_in_the_api_and_on_the_page(
    kind: str,
    athena: Bot,
    opponents: Callable[[int], list[Bot]],
    anonymous: APIClient,
    client: Client,
) -> None:
    (rival,) = opponents(1)
    play_ranked(ladder(2), [athena, rival], [10, 5])
    for _ in range(3):  # games somebody chose: they must not fill the record
        chosen = match_create(
            kind=kind,
            game="akropolis",
            players=2,
            options={},
            seats=[latest_version(athena), latest_version(rival)],
        )
        finish_match(chosen, scores=[1, 9])

    assert row(head_to_head(bot=athena), rival) == (1, 0, 0, 1)
    (shown,) = anonymous.get(f"/api/bots/{athena.id}/head-to-head/").json()["results"]
    assert (shown["wins"], shown["losses"], shown["games"]) == (1, 0, 1)
    page = client.get(reverse("web:bot", args=[athena.id])).content.decode()
    assert "Ranked games only" in page
    assert page.count('<td class="num">1</td><td class="num">0</td><td class="num">0</td>') == 1


def test_a_bot_that_met_nobody_has_no_rows(athena: Bot) -> None:
    assert head_to_head(bot=athena) == []  # its validation match was against a builtin


def test_it_is_one_statement_however_many_opponents(
    athena: Bot, opponents: Callable[[int], list[Bot]]
) -> None:
    for rival in opponents(5):
        play_ranked(ladder(2), [athena, rival], [4, 2])
    with CaptureQueriesContext(connection) as queries:
        rows = head_to_head(bot=athena)
    assert len(rows) == 5
    assert len(queries) == 1


def test_the_bot_page_shows_the_table_in_as_many_queries_for_one_opponent_as_for_five(
    client: Client, athena: Bot, opponents: Callable[[int], list[Bot]]
) -> None:
    first, *others = opponents(5)
    play_ranked(ladder(2), [athena, first], [4, 2])
    url = reverse("web:bot", args=[athena.id])
    with CaptureQueriesContext(connection) as one:
        assert client.get(url).status_code == 200
    for rival in others:
        play_ranked(ladder(2), [rival, athena], [4, 4])
    with CaptureQueriesContext(connection) as five:
        page = client.get(url).content.decode()
    assert len(five) == len(one)
    assert "Head to head" in page
    assert f'<a href="/bots/{first.id}/">rival-0</a> <span class="muted">by bob</span>' in page
    assert page.count('<td class="num">1</td><td class="num">0</td><td class="num">0</td>') == 1
    assert page.count('<td class="num">0</td><td class="num">1</td><td class="num">0</td>') == 4


def test_the_page_says_when_there_is_nobody_yet(client: Client, athena: Bot) -> None:
    page = client.get(reverse("web:bot", args=[athena.id])).content.decode()
    assert "No finished ranked game against another bot yet." in page


def test_the_api_gives_the_record_per_opponent_in_its_schema(
    anonymous: APIClient, athena: Bot, opponents: Callable[[int], list[Bot]]
) -> None:
    (rival,) = opponents(1)
    match = play_ranked(ladder(2), [athena, rival], [1, 6])
    assert match.finished is not None
    response = anonymous.get(f"/api/bots/{athena.id}/head-to-head/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 1
    assert body["results"] == [
        {
            "bot": rival.id,
            "name": "rival-0",
            "owner": "bob",
            "wins": 0,
            "draws": 0,
            "losses": 1,
            "games": 1,
            "last_played": match.finished.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        }
    ]
    assert anonymous.get("/api/bots/99999/head-to-head/").status_code == 404
    schema = anonymous.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "/api/bots/{bot_id}/head-to-head/" in schema["paths"]


def test_the_rating_chart_dates_its_matches(
    athena: Bot, opponents: Callable[[int], list[Bot]]
) -> None:
    (rival,) = opponents(1)
    for _ in range(3):
        play_ranked(ladder(2), [athena, rival], [6, 1])
    changes = list(RatingChange.objects.filter(bot=athena).order_by("id"))
    day = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)
    for index, change in enumerate(changes):
        change.created = day + timedelta(days=index * 10)
    chart = rating_chart(changes, title="t", chart_id="c")
    for label in ("2026-03-01", "2026-03-11", "2026-03-21"):
        assert f">{label}</text>" in chart
    assert "rated matches, by date (UTC)" in chart
    assert f"match {changes[0].match_id}: " in chart and ", 2026-03-01 09:30 UTC" in chart
    for index, change in enumerate(changes):
        change.created = day + timedelta(minutes=index * 5)
    chart = rating_chart(changes, title="t", chart_id="c")
    assert ">09:30</text>" in chart and ">09:40</text>" in chart
    assert "rated matches on 2026-03-01 (UTC)" in chart


def test_a_match_not_finished_is_not_counted(
    athena: Bot, opponents: Callable[[int], list[Bot]]
) -> None:
    (rival,) = opponents(1)
    match = ranked_match(ladder(2), [latest_version(athena), latest_version(rival)])
    Match.objects.filter(id=match.id).update(status=Match.Status.FAILED)
    assert head_to_head(bot=athena) == []
