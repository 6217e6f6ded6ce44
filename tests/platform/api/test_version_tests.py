"""The API of version tests: start one on your bot, read its progress and its games."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from pytest_django import Settings
from rest_framework.test import APIClient

from agon.bots.models import Bot
from agon.version_testing.models import VersionTest
from competition.sprt import Sprt
from tests.platform.conftest import MakeBot
from tests.platform.version_testing.support import bot_with_two_versions, play_queued

pytestmark = pytest.mark.django_db


@pytest.fixture
def hero(make_bot: MakeBot, alice: User) -> Bot:
    return bot_with_two_versions(make_bot, alice)


def test_the_owner_starts_a_test_and_reads_it_as_it_moves(
    hero: Bot, alice_client: APIClient, anonymous: APIClient
) -> None:
    response = alice_client.post(
        f"/api/bots/{hero.id}/tests/",
        {"candidate": 2, "baseline_version": 1, "elo1": 50, "max_games": 40},
        format="json",
    )
    assert response.status_code == 201, response.content
    created = response.json()
    assert created["candidate"] == 2
    assert created["baseline"] == {
        "bot_label": "alice/hero@v1",
        "bot": hero.id,
        "version": 1,
        "builtin": None,
    }
    assert (created["status"], created["verdict"], created["games"]) == ("running", "", 0)
    assert created["llr_bounds"] == [pytest.approx(Sprt().lower), pytest.approx(Sprt().upper)]
    assert created["elo_ci95"] is None and created["llr_history"] == []
    assert created["question"] == "Is v2 at least 50 Elo stronger than v1?"
    assert created["answer"] == "Running: no pair of games counted yet (at most 40 games)."
    assert created["estimate"] == "No Elo estimate yet." and created["progress"] == [0, 0]
    assert [(g["pair"], g["leg"], g["status"]) for g in created["matches"]] == [
        (0, 0, "queued"),
        (0, 1, "queued"),
        (1, 0, "queued"),
        (1, 1, "queued"),
    ]

    play_queued(VersionTest.objects.get(id=created["id"]), "win")
    shown = alice_client.get(f"/api/bots/{hero.id}/tests/{created['id']}/").json()
    assert shown["games"] == 4 and shown["wins"] == 4
    assert shown["pentanomial"] == [0, 0, 0, 0, 2]
    assert len(shown["llr_history"]) == 2 and shown["llr"] == shown["llr_history"][-1]
    low, high = shown["elo_ci95"]
    assert low < shown["elo"] and high is None, "two pairs won 2-0: +low or more"
    assert shown["answer"].startswith("Running: after 4 games (4 won, 0 drawn, 0 lost)")
    assert shown["estimate"] == f"Estimated {shown['elo']:+.0f} Elo (95%: {low:+.0f} or more)."
    toward_h1, toward_h0 = shown["progress"]
    assert 0 < toward_h1 < 1 and toward_h0 == 0

    listed = alice_client.get(f"/api/bots/{hero.id}/tests/").json()
    assert [t["id"] for t in listed["results"]] == [created["id"]]
    assert "llr_history" not in listed["results"][0]
    assert anonymous.get(f"/api/bots/{hero.id}/tests/").json()["count"] == 0, "the owner's"


def test_a_test_beyond_the_budget_is_429_with_retry_after(
    hero: Bot, alice_client: APIClient, settings: Settings
) -> None:
    settings.AGON_VERSION_TEST_GAMES_PER_DAY = 50
    url = f"/api/bots/{hero.id}/tests/"
    given = {"candidate": 2, "baseline_builtin": "greedy", "max_games": 30}
    assert alice_client.post(url, given, format="json").status_code == 201
    refused = alice_client.post(url, given, format="json")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 24 * 3600
    assert "2000" not in refused.json()["error"] and "20 are left" in refused.json()["error"]


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"candidate": 2, "max_games": 60}, "name one baseline"),
        ({"candidate": 2, "baseline_version": 1, "baseline_builtin": "greedy"}, "one baseline"),
        ({"candidate": 2, "baseline_builtin": "stockfish"}, "baseline_builtin"),
        ({"candidate": 9, "baseline_version": 1}, "has no version 9"),
        ({"candidate": 2, "baseline_version": 1, "max_games": 5000}, "max_games"),
        ({"candidate": 2, "baseline_version": 1, "elo0": 5, "elo1": 5}, "elo0 must be below"),
        ({"candidate": 2, "baseline_version": 1, "players": 9}, "players"),
    ],
)
def test_a_test_that_cannot_be_played_is_400_saying_why(
    hero: Bot, alice_client: APIClient, given: dict[str, object], message: str
) -> None:
    response = alice_client.post(f"/api/bots/{hero.id}/tests/", given, format="json")
    assert response.status_code == 400
    assert message in response.json()["error"]
    assert not VersionTest.objects.exists()


def test_another_bots_test_is_not_found(
    hero: Bot, make_bot: MakeBot, alice: User, alice_client: APIClient
) -> None:
    other = make_bot(alice, "other")
    created = alice_client.post(
        f"/api/bots/{hero.id}/tests/",
        {"candidate": 2, "baseline_version": 1},
        format="json",
    ).json()
    assert alice_client.get(f"/api/bots/{other.id}/tests/{created['id']}/").status_code == 404
    assert alice_client.get("/api/bots/999999/tests/").status_code == 404


def test_a_test_counted_before_issue_24_reads_with_the_honest_interval(
    hero: Bot, alice_client: APIClient
) -> None:
    created = alice_client.post(
        f"/api/bots/{hero.id}/tests/",
        {"candidate": 2, "baseline_version": 1, "max_games": 40},
        format="json",
    ).json()
    # What the old normal interval stored for a 20-0 sweep: "1000.0 [1000.0, 1000.0]".
    VersionTest.objects.filter(id=created["id"]).update(
        pentanomial=[0, 0, 0, 0, 10],
        games_counted=20,
        wins=20,
        elo=1000.0,
        elo_low=1000.0,
        elo_high=1000.0,
    )
    shown = alice_client.get(f"/api/bots/{hero.id}/tests/{created['id']}/").json()
    low, high = shown["elo_ci95"]
    assert 100 < low < shown["elo"] < 1000 and high is None
