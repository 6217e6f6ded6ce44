"""The sweep that keeps matches from being lost: running ones whose worker died are queued
again, and queued ones whose task message was lost are sent again."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from agon.cli.up_prepare import resync_embedded_queue
from agon.ladders.models import Ladder
from agon.matches import services
from agon.matches.models import Match
from agon.matches.services import match_claim, requeue_stuck_matches
from tests.platform.conftest import MakeBot
from tests.platform.support import latest_version, ranked_match

pytestmark = pytest.mark.django_db

BROKER_FOLDERS = ("data_folder_in", "data_folder_out", "processed_folder", "control_folder")


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    messages: list[int] = []

    class FakeCelery:
        @staticmethod
        def send_task(name: str, args: tuple[int], queue: str) -> None:
            assert name == services.MATCH_TASK
            messages.append(args[0])

    monkeypatch.setattr(services, "celery_app", FakeCelery)
    return messages


def queued_match(make_bot: MakeBot, alice: User, ladder: Ladder) -> Match:
    bots = [make_bot(alice, "one"), make_bot(alice, "two")]
    return ranked_match(ladder, [latest_version(bot) for bot in bots])


def test_a_queued_match_whose_message_was_lost_is_sent_again(
    make_bot: MakeBot, alice: User, ladder_2p: Ladder, sent: list[int]
) -> None:
    match = queued_match(make_bot, alice, ladder_2p)
    Match.objects.filter(id=match.id).update(enqueued=timezone.now() - timedelta(hours=1))
    assert match.id in requeue_stuck_matches(stuck_seconds=600)
    assert sent == [match.id]
    match.refresh_from_db()
    assert match.status == Match.Status.QUEUED
    assert match.enqueued is not None and timezone.now() - match.enqueued < timedelta(minutes=1)


def test_a_recently_sent_queued_match_is_left_alone(
    make_bot: MakeBot, alice: User, ladder_2p: Ladder, sent: list[int]
) -> None:
    match = queued_match(make_bot, alice, ladder_2p)
    services._enqueue(match.id)
    sent.clear()
    assert requeue_stuck_matches(stuck_seconds=600) == []
    assert sent == []


def test_agon_up_counts_the_matches_its_last_stop_cut_short_apart_from_the_queued(
    make_bot: MakeBot, alice: User, ladder_2p: Ladder, sent: list[int], tmp_path: Path
) -> None:
    """Two queued matches and one left `running` by the last stop: one was cut short,
    not three (the queued ones are sent again too)."""
    versions = [latest_version(make_bot(alice, name)) for name in ("one", "two")]
    matches = [ranked_match(ladder_2p, versions) for _ in range(3)]
    assert match_claim(match_id=matches[0].id) is not None
    folders = {key: str(tmp_path / key) for key in BROKER_FOLDERS}
    settings = SimpleNamespace(CELERY_BROKER_TRANSPORT_OPTIONS=folders)
    said: list[str] = []
    console = SimpleNamespace(say=said.append)

    resync_embedded_queue(console, settings)  # type: ignore[arg-type]

    assert said == ["queue: 2 queued matches sent again, 1 cut short by the last stop queued again"]
    assert sorted(sent) == sorted(match.id for match in matches)
