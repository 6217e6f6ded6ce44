"""A running match's moves so far (`agon.matches.live`): written now and then while the
match plays, read by the web, gone once the match is over, never in the match's way."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from pytest_django import Settings

from agon.matches import services
from agon.matches.live import LiveRecorder, live_actions, live_clear, live_name
from agon.matches.models import Match
from agon.matches.services import match_create, match_execute
from engine.core import JSON


@pytest.fixture(autouse=True)
def media_root(settings: Settings, tmp_path: Path) -> Path:
    folder = tmp_path / "media"
    settings.MEDIA_ROOT = folder
    settings.AGON_WORK_DIR = tmp_path / "work"
    return folder


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_first_move_is_written_at_once_then_at_most_once_per_interval() -> None:
    clock = Clock()
    recorder = LiveRecorder(7, interval=1.0, clock=clock)
    recorder(None, 0, {"n": 1})
    assert live_actions(7) == [{"n": 1}]
    clock.now = 0.5
    recorder(None, 1, {"n": 2})
    assert live_actions(7) == [{"n": 1}], "not again within the interval"
    clock.now = 1.2
    recorder(None, 0, {"n": 3})
    assert live_actions(7) == [{"n": 1}, {"n": 2}, {"n": 3}]
    live_clear(7)
    assert live_actions(7) is None


def test_a_missing_or_broken_file_reads_as_nothing() -> None:
    assert live_actions(8) is None
    default_storage.save(live_name(8), ContentFile(b'{"actions": [1, 2'))
    assert live_actions(8) is None


def test_a_storage_failure_does_not_stop_the_match(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(default_storage, "save", refuse)
    recorder = LiveRecorder(9, interval=0)
    recorder(None, 0, {"n": 1})
    recorder(None, 0, {"n": 2})
    assert recorder.broken and recorder.actions == [{"n": 1}, {"n": 2}]


@pytest.mark.django_db
def test_a_match_writes_its_moves_while_it_plays_and_removes_them_at_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    written: list[int] = []

    class Spy(LiveRecorder):
        def flush(self) -> None:
            super().flush()
            written.append(len(live_actions(self.match_id) or []))

    monkeypatch.setattr(services, "LiveRecorder", lambda match_id: Spy(match_id, interval=0))
    match = match_create(
        kind=Match.Kind.CHALLENGE,
        game="akropolis",
        players=2,
        options={},
        seats=["random", "greedy"],
        seed=5,
    )
    assert match_execute(match_id=match.id)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    with match.replay.open("rb") as stored:
        moves: list[JSON] = json.loads(stored.read())["actions"]
    assert written == list(range(1, len(moves) + 1))
    assert live_actions(match.id) is None
