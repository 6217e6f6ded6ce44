"""Lowest priority is not never: a real worker busy with the ranked matches that
matchmaking keeps queued still plays a version test's game, once it has waited
AGON_BACKGROUND_MAX_WAIT_SECONDS."""

from __future__ import annotations

import time

import pytest
from pytest_django import Settings

from agon.ladders.services import matchmaking_round
from agon.matches.models import Match
from agon.matches.services import match_create
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import (
    EXAMPLE_BOTS,
    json_of,
    only_ladder,
    py_upload,
    signed_in_client,
    wait_for,
    wait_validated,
)

pytestmark = pytest.mark.django_db(transaction=True)

BOTS = 8
"""Enough for tables queued and one playing at once: the ranked queue never runs dry."""


def test_a_version_test_game_is_played_while_the_ladder_stays_busy(
    pipeline: Pipeline, settings: Settings
) -> None:
    settings.AGON_QUEUE_TARGET = 3
    settings.AGON_BACKGROUND_MAX_WAIT_SECONDS = 3
    only_ladder("akropolis", 2)
    client = signed_in_client("erin")
    source = (EXAMPLE_BOTS / "random_bot.py").read_bytes()
    bot_ids = [
        json_of(
            client.post(
                "/api/bots/",
                {"name": f"b{n}", "game": "akropolis", "file": py_upload("main.py", source)},
                format="multipart",
            ),
            201,
        )["id"]
        for n in range(BOTS)
    ]
    pipeline.start_worker(concurrency=1)
    wait_validated(client, bot_ids, pipeline.explain())
    matchmaking_round()
    background = match_create(
        kind=Match.Kind.VERSION_TEST,
        game="akropolis",
        players=2,
        options={},
        seats=["random", "random"],
    )

    def taken_while_matchmaking_runs() -> Match | None:
        # What beat does every AGON_MATCHMAKING_SECONDS, only more often.
        matchmaking_round()
        background.refresh_from_db()
        return background if background.status != Match.Status.QUEUED else None

    wait_for(
        taken_while_matchmaking_runs,
        timeout=90,
        interval=0.2,
        what="the worker to take the version test's game",
        explain=pipeline.explain(),
    )
    assert background.started is not None and background.enqueued is not None
    waited = (background.started - background.enqueued).total_seconds()
    print(f"the version test's game waited {waited:.1f} s")
    assert waited < settings.AGON_BACKGROUND_MAX_WAIT_SECONDS + 30, "a bounded wait"
    ranked_meanwhile = Match.objects.filter(
        kind=Match.Kind.RANKED, started__lt=background.started
    ).count()
    assert ranked_meanwhile >= 2, "the ladder kept the worker busy before"
    time.sleep(0.5)
    matchmaking_round()
    queued = Match.objects.filter(kind=Match.Kind.RANKED, status=Match.Status.QUEUED).count()
    assert queued > 0, "matchmaking resumes once the game is taken"
