"""Whatever a bot writes or sends, its match is stored (on PostgreSQL too, which refuses
NUL in text and JSON); a failure to store is the platform's, said at once, and never
the version's fault in its validation."""

from __future__ import annotations

import base64
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django.urls import reverse
from pytest_django import Settings
from rest_framework.test import APIClient

from agon import counters
from agon.bots.models import Bot, BotVersion
from agon.ladders.models import Ladder, RatingChange
from agon.matches.bot_logs import turn_logs
from agon.matches.models import Match
from agon.matches.services import match_claim, match_create, match_execute, match_finish
from engine.core import JSON
from engine.match import play_match
from engine.players import RandomBot
from engine.registry import get_game
from sandbox.limits import limits_for
from sandbox.runner import MatchRecord
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.support import (
    finish_match,
    latest_version,
    ranked_match,
    seat_report,
    validation_match,
)

DIRT = b"\x00nul \xff\xfe invalid \xed\xa0\x80 surrogate \x1b[31m\x07\r\nok \xc3\xa9\n"
"""What a bot may write on stderr: NUL, invalid UTF-8, an encoded lone surrogate,
controls; and some UTF-8 that must stay as it is."""


@pytest.fixture
def media(settings: Settings, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.AGON_WORK_DIR = tmp_path / "work"


@pytest.fixture
def rivals(make_bot: MakeBot, alice: User, bob: User) -> tuple[Bot, Bot]:
    return make_bot(alice, "ant"), make_bot(bob, "bee")


def ranked_match_of(ladder: Ladder, bots: Sequence[Bot]) -> Match:
    return ranked_match(ladder, [latest_version(bot) for bot in bots])


# --- a log of any bytes ---------------------------------------------------------------


@pytest.mark.usefixtures("media")
def test_it_stores_a_log_of_any_bytes_and_rates_the_match(
    ladder_2p: Ladder, rivals: tuple[Bot, Bot]
) -> None:
    match = finish_match(ranked_match_of(ladder_2p, rivals), scores=[5, 6], logs={0: DIRT})
    assert match.status == Match.Status.FINISHED
    assert bytes(match.seats.get(seat=0).log) == DIRT
    assert RatingChange.objects.filter(match=match).count() == 2


@pytest.mark.usefixtures("media")
def test_the_owner_reads_the_log_back_byte_for_byte_and_shown_escaped(
    ladder_2p: Ladder, rivals: tuple[Bot, Bot], alice_client: APIClient, bob_client: APIClient
) -> None:
    match = finish_match(ranked_match_of(ladder_2p, rivals), scores=[5, 6], logs={0: DIRT})
    shown = alice_client.get(f"/api/matches/{match.id}/logs/0/").json()
    assert base64.b64decode(shown["log_base64"]) == DIRT
    assert shown["log"] == (
        "\\x00nul \\xff\\xfe invalid \\xed\\xa0\\x80 surrogate \\x1b[31m\\x07\\x0d\nok é\n"
    )
    assert shown["log_dropped_bytes"] == 0
    assert bob_client.get(f"/api/matches/{match.id}/logs/0/").status_code == 403


@pytest.mark.usefixtures("media")
def test_the_owner_reads_each_turn_s_log_escaped_and_nobody_else_does(
    ladder_2p: Ladder, rivals: tuple[Bot, Bot], alice_client: APIClient, bob_client: APIClient
) -> None:
    turns = [b"first\n", DIRT, b"", b"\xc3", b"\xa9 split\n"]
    match = finish_match(ranked_match_of(ladder_2p, rivals), scores=[5, 6], logs={0: turns})
    shown = alice_client.get(f"/api/matches/{match.id}/logs/0/").json()
    assert shown["turn_logs"] == [
        "first\n",
        "\\x00nul \\xff\\xfe invalid \\xed\\xa0\\x80 surrogate \\x1b[31m\\x07\\x0d\nok é\n",
        "",
        "\\xc3",  # a character cut between two turns shows as its bytes
        "\\xa9 split\n",
    ]
    assert "turn_logs" not in bob_client.get(f"/api/matches/{match.id}/logs/0/").json()


def test_turn_logs_keep_to_the_log_whatever_the_offsets() -> None:
    data = b"0123456789"
    assert turn_logs(data, [0, 4, 4, 9]) == ["0123", "", "45678", "9"]
    assert turn_logs(data, [3, 50, 2, "x", None, True, -1]) == ["3456789", "", "", "", "", "", ""]
    assert turn_logs(b"", [0, 0]) == ["", ""]
    assert turn_logs(data, []) == []


@pytest.mark.usefixtures("media")
def test_the_log_page_shows_the_bytes_escaped(
    ladder_2p: Ladder, rivals: tuple[Bot, Bot], alice: User
) -> None:
    match = finish_match(ranked_match_of(ladder_2p, rivals), scores=[5, 6], logs={0: DIRT})
    browser = Client()
    browser.login(username="alice", password=PASSWORD)
    page = browser.get(reverse("web:seat-log", args=[match.id, 0])).content.decode()
    assert "\\x00nul \\xff\\xfe invalid" in page
    assert "\x00" not in page and "\x1b" not in page


# --- what a bot sends --------------------------------------------------------------------


class FilthyIllegalBot(RandomBot):
    """On its third turn, an illegal action of a megabyte with NUL, a lone surrogate and
    controls in it."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.turns = 0

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> JSON:
        self.turns += 1
        if self.turns == 3:
            return {"tile": "\x00\ud800\x1b" + "x" * 1_000_000, "q": 0, "r": 0, "rotation": 0}
        return super().act(observation, legal_actions)


@pytest.mark.usefixtures("media")
def test_it_stores_a_fault_quoting_any_characters_bounded(
    ladder_2p: Ladder, rivals: tuple[Bot, Bot], anonymous: APIClient
) -> None:
    match = ranked_match_of(ladder_2p, rivals)
    replay = play_match(
        get_game(match.game),
        seed=match.seed,
        players=2,
        options=dict(match.options),
        bots=[FilthyIllegalBot(1), RandomBot(2)],
        bot_ids=[seat.bot_id_label for seat in match.seats.all()],
    )
    record = MatchRecord(
        replay=replay,
        seats=[seat_report(), seat_report()],
        backend="in-process bots of the test",
        limits=limits_for(match.game),
    )
    token = match_claim(match_id=match.id)
    assert token is not None
    with transaction.atomic():
        assert match_finish(match_id=match.id, token=token, record=record, started=time.monotonic())
    shown = anonymous.get(f"/api/matches/{match.id}/").json()
    (fault,) = shown["faults"]
    assert fault["kind"] == "illegal_action"
    assert len(fault["detail"]) < 400 and fault["detail"].endswith("more characters)")
    assert "\\x00\\ud800\\x1b" in fault["detail"]
    assert anonymous.get(f"/api/matches/{match.id}/replay/").status_code == 200
    assert anonymous.get(f"/api/matches/{match.id}/timeline/").status_code == 200


# --- a failure to store ----------------------------------------------------------------


def refuse_to_store(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make storing a result fail as a database refusing a value would."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        from django.db import DataError

        raise DataError('invalid byte sequence for encoding "UTF8": 0x00')

    monkeypatch.setattr("agon.matches.services.ContentFile", refuse)  # the replay's file


@pytest.mark.django_db
@pytest.mark.usefixtures("media")
def test_a_result_that_cannot_be_stored_fails_the_match_at_once_saying_so(
    monkeypatch: pytest.MonkeyPatch,
    settings: Settings,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    settings.AGON_SANDBOX = "none"
    settings.AGON_ALLOW_UNSANDBOXED = True
    refuse_to_store(monkeypatch)
    failed: list[str] = []
    monkeypatch.setattr(
        counters, "record_match_failed", lambda **labels: failed.append(labels["kind"])
    )
    match = match_create(
        kind=Match.Kind.CHALLENGE, game="akropolis", players=2, options={}, seats=["random"] * 2
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert match_execute(match_id=match.id) is False
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED
    assert match.attempts == 1
    assert match.error == (
        "the platform could not store its result (DataError: invalid byte sequence for "
        'encoding "UTF8": 0x00)'
    )
    assert failed == ["challenge"]  # counted as failed
    assert "worker" not in match.error
    assert match.seats.filter(rank__isnull=False).count() == 0  # nothing half stored


@pytest.mark.usefixtures("media")
def test_a_validation_the_platform_fails_is_run_again_then_says_the_platform_failed(
    monkeypatch: pytest.MonkeyPatch, settings: Settings, alice: User, make_bot: MakeBot
) -> None:
    settings.AGON_SANDBOX = "none"
    settings.AGON_ALLOW_UNSANDBOXED = True
    refuse_to_store(monkeypatch)
    version = latest_version(make_bot(alice, "unlucky", active=False))
    for attempt in range(1, settings.AGON_MATCH_MAX_ATTEMPTS + 1):
        queued = Match.objects.get(
            kind=Match.Kind.VALIDATION, seats__version=version, status=Match.Status.QUEUED
        )
        assert match_execute(match_id=queued.id) is False
        version.refresh_from_db()
        if attempt < settings.AGON_MATCH_MAX_ATTEMPTS:
            assert version.status == BotVersion.Status.VALIDATING, version.reason
    assert version.status == BotVersion.Status.REJECTED
    assert version.reason.startswith("not judged: the platform failed to run its validation")
    assert "says nothing against your bot" in version.reason


def test_a_validation_that_finishes_is_judged_as_before(alice: User, make_bot: MakeBot) -> None:
    version = latest_version(make_bot(alice, "fine", active=False))
    finish_match(validation_match(version), scores=[3, 1])
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE
