"""The background share is a guarantee: a real worker busy with the ranked matches that
matchmaking keeps queued takes a version test's game as soon as a slot frees, and
matchmaking goes on topping the ranked queue up meanwhile (agon.matches.background)."""

from __future__ import annotations

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
    settings.AGON_HOUSE_ACCOUNTS = ["erin"]  # one author's bots may meet
    matchmaking_round()
    background = match_create(
        kind=Match.Kind.VERSION_TEST,
        game="akropolis",
        players=2,
        options={},
        seats=["random", "random"],
        background=True,
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
    # The ranked match playing when it was queued, and at most the one the worker had
    # taken ahead (a prefetch of one), come first: never the whole ranked queue.
    ranked_before = Match.objects.filter(
        kind=Match.Kind.RANKED,
        started__gt=background.enqueued,
        started__lt=background.started,
    ).count()
    assert ranked_before <= 1, f"{ranked_before} ranked matches went ahead of it"
    queued = Match.objects.filter(kind=Match.Kind.RANKED, status=Match.Status.QUEUED).count()
    assert queued > 0, "matchmaking kept the ranked queue topped up meanwhile"
