"""What the paginator does for long lists only (thousands of rows, as in bench/api.py),
brought down to a few rows here: deep pages read by their keys give the same pages, and a
long list's count is kept for a while."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from agon.api import pagination
from agon.bots.models import Bot
from agon.ladders.models import Ladder
from tests.platform.conftest import MakeBot
from tests.platform.support import play_ranked

pytestmark = pytest.mark.django_db


@pytest.fixture
def busy_ladder(ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User) -> Ladder:
    bots = [make_bot(owner, f"{owner.username}{i}") for i in range(3) for owner in (alice, bob)]
    for first, second in zip(bots, bots[1:] + bots[:1], strict=True):
        play_ranked(ladder_2p, [first, second], scores=[2, 1])
    return ladder_2p


@pytest.fixture
def no_counts_kept() -> Iterator[None]:
    pagination.COUNTS.clear()
    yield
    pagination.COUNTS.clear()


def every_page(client: APIClient, url: str) -> list[dict[str, Any]]:
    pages = []
    while url:
        response = client.get(url)
        assert response.status_code == 200
        pages.append(response.json())
        url = pages[-1]["next"]
    return pages


@pytest.mark.parametrize(
    "url",
    [
        "/api/matches/?page_size=3",
        "/api/matches/?page_size=2&status=finished",
        "/api/ladders/{ladder}/leaderboard/?page_size=2",
        "/api/bots/?page_size=2",
    ],
)
def test_deep_pages_read_by_their_keys_are_the_same_pages(
    anonymous: APIClient, busy_ladder: Ladder, monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    url = url.format(ladder=busy_ladder.id)
    read_at_once = every_page(anonymous, url)

    monkeypatch.setattr(pagination, "DEEP_OFFSET", 0)  # every page is deep
    by_keys = every_page(anonymous, url)

    assert len(read_at_once) > 2
    assert by_keys == read_at_once


def test_a_long_list_s_count_is_kept_for_a_while_and_a_short_one_s_is_not(
    anonymous: APIClient,
    busy_ladder: Ladder,
    make_bot: MakeBot,
    alice: User,
    monkeypatch: pytest.MonkeyPatch,
    no_counts_kept: None,
) -> None:
    def count(url: str) -> int:
        response = anonymous.get(url)
        assert response.status_code == 200
        return int(response.json()["count"])

    all_matches = count("/api/matches/")
    on_the_ladder = count(f"/api/matches/?ladder={busy_ladder.id}")
    monkeypatch.setattr(pagination, "LONG_LIST", all_matches)  # all are long, the ladder's not
    assert count("/api/matches/") == all_matches

    rival = Bot.objects.filter(owner=alice).order_by("id").first()
    assert rival is not None
    newcomer = make_bot(alice, "newcomer")  # a validation match, then a ranked one
    play_ranked(busy_ladder, [newcomer, rival], scores=[1, 2])

    assert count("/api/matches/") == all_matches  # kept
    assert count(f"/api/matches/?ladder={busy_ladder.id}") == on_the_ladder + 1
    pagination.COUNTS.clear()  # as after COUNT_SECONDS
    assert count("/api/matches/") == all_matches + 2
