"""A version test through the whole pipeline: a bot's random first version and its
lookahead second one (the two example bots) uploaded through the API, validated, then
tested against each other by a real worker playing in real boxes, to a verdict."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from agon.ladders.models import RatingChange
from agon.matches.models import Match
from agon.version_testing.models import VersionTest
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import (
    EXAMPLE_BOTS,
    json_of,
    only_ladder,
    py_upload,
    wait_for,
    wait_validated,
)

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in_client(username: str) -> APIClient:
    client = APIClient()
    given = {"username": username, "password": "pipeline passes"}
    json_of(client.post("/api/auth/register/", given), 201)
    token = json_of(client.post("/api/auth/token/", given))["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_a_lookahead_version_is_found_stronger_than_a_random_one(pipeline: Pipeline) -> None:
    only_ladder("akropolis", 2)
    client = signed_in_client("dana")
    pipeline.start_worker(concurrency=2)
    random_bot = (EXAMPLE_BOTS / "random_bot.py").read_bytes()
    lookahead_bot = (EXAMPLE_BOTS / "lookahead_bot.py").read_bytes()
    bot = json_of(
        client.post(
            "/api/bots/",
            {"name": "climber", "game": "akropolis", "file": py_upload("main.py", random_bot)},
            format="multipart",
        ),
        201,
    )
    wait_validated(client, [bot["id"]], pipeline.explain())
    json_of(
        client.post(
            f"/api/bots/{bot['id']}/versions/",
            {"file": py_upload("main.py", lookahead_bot)},
            format="multipart",
        ),
        201,
    )

    def second_version_active() -> bool:
        versions = json_of(client.get(f"/api/bots/{bot['id']}/"))["versions"]
        assert versions[-1]["status"] != "rejected", versions
        return bool(versions[-1]["status"] == "active")

    wait_for(second_version_active, timeout=120, what="v2's validation", explain=pipeline.explain())

    started = json_of(
        client.post(
            f"/api/bots/{bot['id']}/tests/",
            {"candidate": 2, "baseline_version": 1, "elo0": 0, "elo1": 300, "max_games": 40},
            format="json",
        ),
        201,
    )
    url = f"/api/bots/{bot['id']}/tests/{started['id']}/"

    def decided() -> dict[str, object] | None:
        shown: dict[str, object] = json_of(client.get(url))
        return shown if shown["status"] != "running" else None

    result = wait_for(decided, timeout=600, what="the test's verdict", explain=pipeline.explain())

    assert result["verdict"] == "H1", result
    test = VersionTest.objects.get(id=started["id"])
    assert test.llr >= test.llr_history[-1] - 1e-9 and len(test.llr_history) == test.pairs_counted
    assert test.elo is not None and test.elo_low is not None and test.elo > 0
    counted = Match.objects.filter(
        version_test_game__test=test, version_test_game__pair__lt=test.pairs_counted
    )
    assert counted.count() == test.games_counted == 2 * test.pairs_counted
    assert {match.status for match in counted} == {Match.Status.FINISHED}
    assert test.wins + test.draws + test.losses == test.games_counted
    assert test.wins > test.losses
    assert not RatingChange.objects.filter(match__kind=Match.Kind.VERSION_TEST).exists()

    def nothing_left_to_play() -> bool:
        return not Match.objects.filter(
            kind=Match.Kind.VERSION_TEST, status__in=[Match.Status.QUEUED, Match.Status.RUNNING]
        ).exists()

    wait_for(nothing_left_to_play, timeout=120, what="the games in flight to end")
    test.refresh_from_db()
    assert test.verdict == VersionTest.Verdict.H1 and test.games_counted == counted.count(), (
        "games ending after the verdict change nothing"
    )
