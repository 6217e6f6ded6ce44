"""From an upload through the API to a replay, with a real worker playing in real boxes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pytest_django import Settings

from agon.ladders.models import RatingChange
from agon.ladders.services import matchmaking_round
from agon.matches.models import Match
from agon.matches.stored_timelines import read_steps, timeline_name
from engine.replay import Replay, verify_replay
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import (
    EXAMPLE_BOTS,
    json_of,
    only_ladder,
    py_upload,
    signed_in_client,
    wait_finished,
    wait_for,
    wait_validated,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_upload_is_validated_then_rated_on_its_ladder_and_its_match_replays(
    pipeline: Pipeline, settings: Settings
) -> None:
    ladder = only_ladder("akropolis", 2)
    client = signed_in_client("carol")
    source = (EXAMPLE_BOTS / "random_bot.py").read_bytes()
    bot_ids = []
    for name in ("ant", "bee"):
        created = json_of(
            client.post(
                "/api/bots/",
                {"name": name, "game": "akropolis", "file": py_upload("random_bot.py", source)},
                format="multipart",
            ),
            201,
        )
        assert [v["status"] for v in created["versions"]] == ["validating"]
        bot_ids.append(created["id"])

    pipeline.start_worker()

    wait_validated(client, bot_ids, pipeline.explain())

    settings.AGON_HOUSE_ACCOUNTS = ["carol"]  # one author's bots may meet
    created = matchmaking_round()
    assert [(m.ladder_id, m.kind, m.status) for m in created] == [
        (ladder.id, Match.Kind.RANKED, Match.Status.QUEUED)
    ], "two bots on a 2-player ladder: one table"
    match = wait_finished(created[0], pipeline.explain())

    listed = json_of(
        client.get(f"/api/matches/?bot={bot_ids[0]}&ladder={ladder.id}&status=finished")
    )
    assert [m["id"] for m in listed["results"]] == [match.id]
    detail = json_of(client.get(f"/api/matches/{match.id}/"))
    assert detail["status"] == "finished"
    assert sorted(seat["bot"] for seat in detail["seats"]) == sorted(bot_ids)
    assert match.match_seconds is not None and match.pipeline_seconds is not None
    assert 0 < match.match_seconds <= match.pipeline_seconds

    board = json_of(client.get(f"/api/ladders/{ladder.id}/leaderboard/"))["results"]
    assert sorted(row["bot"] for row in board) == sorted(bot_ids)
    assert [row["games"] for row in board] == [1, 1]
    changes = {c.bot_id: c for c in RatingChange.objects.filter(match=match)}
    assert sorted(changes) == sorted(bot_ids)
    for row in board:
        assert row["rating"] == pytest.approx(changes[row["bot"]].after)
    ranks = {seat["bot"]: seat["rank"] for seat in detail["seats"]}
    if ranks[bot_ids[0]] != ranks[bot_ids[1]]:
        winner = min(bot_ids, key=lambda bot_id: ranks[bot_id])
        assert board[0]["bot"] == winner
        assert board[0]["rating"] > 1500 > board[1]["rating"]

    response: Any = client.get(f"/api/matches/{match.id}/replay/")
    assert response.status_code == 200
    replay = Replay.from_json(json.loads(b"".join(response.streaming_content)))
    verify_replay(replay)
    assert replay.result["ranks"] == detail["ranks"]
    assert replay.faults == []
    # The worker stores the match's timeline just after finishing it: the viewer reads it
    # as it is.
    stored = wait_for(
        lambda: read_steps(timeline_name(match.replay.name, match.game)),
        timeout=60,
        what="the worker to store the match's timeline",
    )
    assert client.get(f"/api/matches/{match.id}/timeline/").json()["steps"] == stored
