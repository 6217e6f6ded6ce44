"""A human who stops playing: the match task (run here in-process, as a worker runs it)
times the seat out after AGON_HUMAN_TURN_SECONDS, the stand-in finishes the game at once,
and the match is stored like any other with the timeout recorded."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from pytest_django import Settings

from agon.human_games.services import human_game_create
from agon.matches.models import HumanTurn, Match
from agon.matches.services import match_execute

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_idle_human_times_out_and_the_game_ends_cleanly(
    alice: User, settings: Settings, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.AGON_WORK_DIR = tmp_path / "work"
    settings.AGON_HUMAN_TURN_SECONDS = 0.5
    match = human_game_create(user=alice, game="akropolis", seat=1, opponents=["greedy"])
    started = time.monotonic()
    assert match_execute(match_id=match.id)
    took = time.monotonic() - started
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert [(f["seat"], f["kind"]) for f in match.faults] == [(1, "timeout")]
    assert match.faults[0]["detail"] == "the human did not move within 0.5 s"
    # One turn asked and expired; the stand-in played the rest without asking.
    turns = HumanTurn.objects.filter(match=match)
    assert [(t.number, t.expired, t.moved) for t in turns] == [(0, True, None)]
    with match.replay.open("rb") as stored:
        replay = json.loads(stored.read())
    assert replay["bots"] == ["builtin:greedy", "human:alice"]
    assert match.ranks[1] == 2  # the faulted seat is last
    assert took < 60, "the game ended soon after the timeout"
