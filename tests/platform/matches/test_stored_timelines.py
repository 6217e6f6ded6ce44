"""Timelines made once (`agon.matches.stored_timelines`): a finished match's steps and
each seat's views are stored beside its replay on their first making, then read from
storage without the engine; an unreadable file is made again."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from rest_framework.test import APIClient

from agon.ladders.models import Ladder
from agon.matches import timeline
from agon.matches.models import Match
from agon.matches.services import match_create
from agon.matches.stored_timelines import code_digest, read_steps, timeline_name
from engine.replay import ReplayError
from tests.platform.conftest import MakeBot
from tests.platform.web.support import play_and_finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(ladder_2p: Ladder, make_bot: MakeBot, alice: User, bob: User) -> Match:
    bots = [make_bot(alice, "ant"), make_bot(bob, "bee")]
    return play_and_finish(
        match_create(
            kind=Match.Kind.RANKED,
            ladder=ladder_2p,
            game="akropolis",
            players=2,
            options={},
            seats=[bot.versions.get(status="active") for bot in bots],
        )
    )


def no_engine(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the engine was asked for a stored timeline")


def test_a_finished_timeline_is_made_once_then_read_without_the_engine(
    anonymous: APIClient, finished: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"/api/matches/{finished.id}/timeline/"
    first = anonymous.get(url).json()
    name = timeline_name(finished.replay.name, "akropolis")
    stem = finished.replay.name.removeprefix("replays/").removesuffix(".json")
    assert name == f"timelines/{stem}-{code_digest('akropolis')}.json.gz"
    assert read_steps(name) == first["steps"]

    caches["timelines"].clear()
    monkeypatch.setattr(timeline, "timeline_steps", no_engine)
    monkeypatch.setattr(timeline, "seat_observation_patches", no_engine)
    again = anonymous.get(url).json()
    assert again == first
    with pytest.raises(AssertionError, match="the engine was asked"):
        anonymous.get(f"{url}?seat=1")  # what seat 1 saw is not stored yet


def test_a_seat_s_views_are_stored_on_their_first_request(
    anonymous: APIClient, finished: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"/api/matches/{finished.id}/timeline/?seat=1"
    first = anonymous.get(url).json()
    assert read_steps(timeline_name(finished.replay.name, "akropolis", seat=1)) == [
        step["observation_patch"] for step in first["steps"]
    ]
    caches["timelines"].clear()
    monkeypatch.setattr(timeline, "timeline_steps", no_engine)
    monkeypatch.setattr(timeline, "seat_observation_patches", no_engine)
    assert anonymous.get(url).json() == first


def test_an_unreadable_timeline_is_made_again(anonymous: APIClient, finished: Match) -> None:
    url = f"/api/matches/{finished.id}/timeline/"
    first = anonymous.get(url).json()
    name = timeline_name(finished.replay.name, "akropolis")
    default_storage.delete(name)
    default_storage.save(name, ContentFile(b"\x1f\x8b not gzip at all"))
    caches["timelines"].clear()

    assert anonymous.get(url).json() == first
    assert read_steps(name) == first["steps"], "made again, and stored in its place"


def test_a_replay_that_cannot_be_played_again_says_so_and_stores_nothing(
    anonymous: APIClient, finished: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ReplayError("step 3 is not legal")

    monkeypatch.setattr(timeline, "timeline_steps", broken)
    shown = anonymous.get(f"/api/matches/{finished.id}/timeline/").json()
    assert (shown["steps"], shown["error"]) == ([], "step 3 is not legal")
    assert read_steps(timeline_name(finished.replay.name, "akropolis")) is None
