"""A bot that crashes in its validation match, played by a real worker in a real box:
its version is rejected, and the reason is there for its owner (API and page) and for
nobody else (issue 15, finding 7: "a rejected version's reason is null in
GET /api/bots/{id}/ for its owner")."""

from __future__ import annotations

import functools

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import (
    json_of,
    only_ladder,
    py_upload,
    signed_in_client,
    wait_for,
)

pytestmark = pytest.mark.django_db(transaction=True)

CRASHING_BOT = b"""\
from agon_bot import run


def act(observation, legal_actions):
    raise RuntimeError("my bot breaks on its first turn")


run(act)
"""


def judged_version(client: APIClient, bot_id: int) -> dict[str, object] | None:
    version: dict[str, object] = json_of(client.get(f"/api/bots/{bot_id}/"))["versions"][0]
    return None if version["status"] == "validating" else version


def test_a_bot_that_crashes_in_validation_is_rejected_with_its_reason_for_its_owner(
    pipeline: Pipeline,
) -> None:
    only_ladder("akropolis", 2)
    owner = signed_in_client("crasher")
    created = json_of(
        owner.post(
            "/api/bots/",
            {"name": "breaks", "game": "akropolis", "file": py_upload("main.py", CRASHING_BOT)},
            format="multipart",
        ),
        201,
    )
    pipeline.start_worker()

    version = wait_for(
        functools.partial(judged_version, owner, created["id"]),
        timeout=120,
        what="the crashing bot's version to be judged",
        explain=pipeline.explain(),
    )

    assert version["status"] == "rejected"
    reason = (
        "crash on its 1st move (game turn 0): "
        "the program exited with code 1 after raising RuntimeError"
    )
    assert version["reason"] == reason
    someone_else = signed_in_client("onlooker")
    for stranger in (someone_else, APIClient()):
        shown = json_of(stranger.get(f"/api/bots/{created['id']}/"))["versions"][0]
        assert (shown["status"], shown["reason"]) == ("rejected", None)

    browser = Client()
    browser.force_login(User.objects.get(username="crasher"))
    page = browser.get(f"/my/bots/{created['id']}/").content.decode()
    assert reason in page
