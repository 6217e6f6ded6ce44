"""Matches someone waits for (a validation, a challenge) are sent to the queue a worker
reads first; public tournaments' games to the next; then the background share (private
tournaments' and version tests' games, capped: agon.matches.background), and the ranked
matches last. The embedded default broker is the first-in-first-out transport, every
other broker kombu's own."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from agon.bots.services import bot_submit
from agon.cli.up import child_commands
from agon.ladders.models import Ladder
from agon.ladders.services import challenge_create
from agon.matches import services
from agon.matches.models import Match
from agon.version_testing.services import Baseline, version_test_create
from tests.deploy.support import run_python
from tests.platform.conftest import MakeBot
from tests.platform.support import latest_version, py_upload, ranked_match, validation_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """The queue each match's task was sent to."""
    queues: dict[int, str] = {}

    class FakeCelery:
        @staticmethod
        def send_task(name: str, args: tuple[int], queue: str) -> None:
            assert name == services.MATCH_TASK
            queues[args[0]] = queue

    monkeypatch.setattr(services, "celery_app", FakeCelery)
    return queues


def test_every_kind_of_match_has_a_queue_that_a_match_worker_reads() -> None:
    assert set(settings.AGON_MATCH_QUEUE_BY_KIND) == set(Match.Kind.values)
    assert set(settings.AGON_MATCH_QUEUE_BY_KIND.values()) <= set(settings.AGON_MATCH_WORKER_QUEUES)
    assert set(settings.AGON_MATCH_WORKER_QUEUES) <= set(settings.AGON_WORKER_QUEUES)


def test_validations_and_challenges_are_read_before_tournament_games_then_ranked_matches(
    make_bot: MakeBot, alice: User, ladder_2p: Ladder, sent: dict[int, str]
) -> None:
    one, two = make_bot(alice, "one"), make_bot(alice, "two")
    new = bot_submit(owner=alice, name="new", game="akropolis", upload=py_upload())
    ranked = ranked_match(ladder_2p, [latest_version(one), latest_version(two)])
    challenge = challenge_create(user=alice, ladder=ladder_2p, bot_ids=[one.id, two.id])
    validation = validation_match(latest_version(new))
    tournament = services.match_create(
        kind=Match.Kind.TOURNAMENT,
        game="akropolis",
        players=2,
        options={},
        seats=[latest_version(one), latest_version(two)],
    )
    for match in (ranked, challenge, validation, tournament):
        services._enqueue(match.id)

    for queues in (settings.AGON_WORKER_QUEUES, settings.AGON_MATCH_WORKER_QUEUES):

        def read_at(match: Match, queues: list[str] = queues) -> int:
            return queues.index(sent[match.id])

        assert read_at(validation) == read_at(challenge) < read_at(tournament) < read_at(ranked)
    assert sent[ranked.id] == settings.AGON_MATCH_QUEUE
    assert sent[tournament.id] == settings.AGON_TOURNAMENT_QUEUE
    assert sent[validation.id] == settings.AGON_PRIORITY_QUEUE


def test_the_background_share_is_read_before_the_ranked_matches(
    make_bot: MakeBot, alice: User, ladder_2p: Ladder, sent: dict[int, str]
) -> None:
    """Capped, it cannot crowd the ladders out; read first, the ladders cannot starve it."""
    one, two = make_bot(alice, "one"), make_bot(alice, "two")
    ranked = ranked_match(ladder_2p, [latest_version(one), latest_version(two)])
    test = version_test_create(
        user=alice, bot=one, candidate=1, baseline=Baseline(builtin="greedy"), max_games=2
    )
    game = Match.objects.get(version_test_game__test=test, version_test_game__leg=0)
    private = services.match_create(
        kind=Match.Kind.TOURNAMENT,
        game="akropolis",
        players=2,
        options={},
        seats=[latest_version(one), latest_version(two)],
        created_by=alice,
        background=True,
    )
    for match in (ranked, game, private):
        services._enqueue(match.id)

    assert sent[game.id] == sent[private.id] == settings.AGON_BACKGROUND_QUEUE
    for queues in (settings.AGON_WORKER_QUEUES, settings.AGON_MATCH_WORKER_QUEUES):
        assert queues[-1] == settings.AGON_MATCH_QUEUE
        assert queues.index(sent[game.id]) < queues.index(sent[ranked.id])


@pytest.mark.parametrize(
    ("broker_url", "transport"),
    [("", "agon.filesystem_broker:Transport"), ("redis://127.0.0.1:6379/0", "None")],
)
def test_the_embedded_default_broker_is_first_in_first_out(
    broker_url: str, transport: str, tmp_path: Path
) -> None:
    env = {"AGON_VAR_DIR": str(tmp_path), **({"AGON_BROKER_URL": broker_url} if broker_url else {})}
    code = "from agon.settings import local; print(local.CELERY_BROKER_TRANSPORT)"
    done = run_python(["-c", code], env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == transport


def test_agon_ups_worker_reads_the_waited_for_matches_first_and_the_ranked_ones_last() -> None:
    args = argparse.Namespace(concurrency=2, host="127.0.0.1", port=8000)
    (worker,) = [child for child in child_commands(args, settings) if child.name == "worker"]
    queues = worker.argv[worker.argv.index("--queues") + 1].split(",")
    assert queues == [
        settings.AGON_PRIORITY_QUEUE,
        settings.CELERY_TASK_DEFAULT_QUEUE,
        settings.AGON_NOTIFICATION_QUEUE,
        settings.AGON_TOURNAMENT_QUEUE,
        settings.AGON_BACKGROUND_QUEUE,
        # The analyses, bounded per day: after the ranked matches they would never be read.
        settings.AGON_ANALYSIS_QUEUE,
        settings.AGON_MATCH_QUEUE,
    ]
