"""A fifth game with no edit outside its package but its registry line: Nim (tests/games/nim)
is uploaded for through the API, validated and rated by a real worker playing in real
boxes, and shown by the API, the timeline, the match page and the documents."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from pytest_django import Settings

from agon.ladders.services import matchmaking_round
from agon.matches.timeline import apply_patch
from engine.spec import GameSpec
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import (
    json_of,
    only_ladder,
    py_upload,
    signed_in_client,
    wait_finished,
    wait_validated,
)

pytestmark = pytest.mark.django_db(transaction=True)

NIM_BOT = b"""\
from agon_bot import Bot, log, run


class Taker(Bot):
    def start(self, info):
        log("turn_ms", info["limits"]["turn_ms"])

    def act(self, observation, legal_actions):
        return legal_actions[-1]


if __name__ == "__main__":
    run(Taker())
"""


def test_nim_is_uploaded_for_rated_and_shown_like_any_game(
    nim: GameSpec[Any], pipeline: Pipeline, settings: Settings
) -> None:
    ladder = only_ladder("nim", 2)
    client = signed_in_client("dora")
    games = {game["id"]: game for game in json_of(client.get("/api/games/"))["results"]}
    assert games["nim"]["name"] == "Nim" and games["nim"]["player_counts"] == [2]
    bot_ids = [
        json_of(
            client.post(
                "/api/bots/",
                {"name": name, "game": "nim", "file": py_upload("main.py", NIM_BOT)},
                format="multipart",
            ),
            201,
        )["id"]
        for name in ("ann", "ben")
    ]

    pipeline.start_worker()  # it inherits the registry line (the environment)

    wait_validated(client, bot_ids, pipeline.explain())
    settings.AGON_HOUSE_ACCOUNTS = ["dora"]  # one author's bots may meet
    (created,) = matchmaking_round()
    assert (created.ladder_id, created.game) == (ladder.id, "nim")
    match = wait_finished(created, pipeline.explain())

    detail = json_of(client.get(f"/api/matches/{match.id}/"))
    assert detail["status"] == "finished" and detail["game"] == "nim"
    assert sorted(detail["scores"]) == [0, 1]
    assert sorted(seat["bot"] for seat in detail["seats"]) == sorted(bot_ids)
    for seat in range(2):
        log = json_of(client.get(f"/api/matches/{match.id}/logs/{seat}/"))["log"]
        assert "turn_ms 2000" in log, "the limits of Nim's spec reached the box"

    timeline = json_of(client.get(f"/api/matches/{match.id}/timeline/"))
    assert timeline["final"] is True and timeline["total"] == len(timeline["steps"])
    view: Any = None
    for step in timeline["steps"]:
        view = apply_patch(view, step["view_patch"])
    assert view["pile"] == 0 and view["over"] is True and view["scores"] == detail["scores"]
    assert "took the last stone and wins" in view["text"]
    assert all(step["text"].startswith("took ") for step in timeline["steps"][1:])

    web = Client()
    page = web.get(f"/matches/{match.id}/").content.decode()
    assert 'data-renderer="text"' in page and "web/games/" not in page
    assert "Stones taken" in page, "the score details, laid out plainly"
    assert nim.blurb in web.get("/").content.decode()
    assert '<h2 id="nim">Nim</h2>' in web.get("/docs/").content.decode()
