"""A real Celery worker serves its metrics on its own port: the matches its pool
processes finished (in multiprocess mode, summed over the pool), their durations and
the faults of their bots."""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from agon.bots.services import bot_submit
from agon.matches.models import Match
from agon.matches.services import match_create
from tests.platform.ops.support import closed_port, metric
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import only_ladder, py_upload, wait_finished, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

CRASHING_BOT = b"import sys\n\nsys.exit('this bot gives up at once')\n"


def scrape(port: int) -> str:
    url = f"http://127.0.0.1:{port}/metrics"
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
        body: bytes = response.read()
    return body.decode()


def test_a_worker_serves_the_counts_of_its_pool_processes(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    only_ladder("akropolis", 2)
    port = closed_port()
    folder = tmp_path / "prometheus"
    folder.mkdir()
    pipeline.start_worker(
        concurrency=2,
        env={"AGON_WORKER_METRICS_PORT": str(port), "PROMETHEUS_MULTIPROC_DIR": str(folder)},
    )
    assert metric(scrape(port), "agon_matches_finished_total") == 0

    owner = User.objects.create_user("metrics-owner")
    bot = bot_submit(
        owner=owner, name="quitter", game="akropolis", upload=py_upload("main.py", CRASHING_BOT)
    )
    validation = Match.objects.get(kind=Match.Kind.VALIDATION, seats__version__bot=bot)
    challenge = match_create(
        kind=Match.Kind.CHALLENGE,
        game="architekton",
        players=2,
        options={},
        seats=["random", "greedy"],
    )
    for match in (validation, challenge):
        wait_finished(match, pipeline.explain())

    def counted() -> str | None:
        text = scrape(port)
        return text if metric(text, "agon_matches_finished_total") == 2 else None

    text = wait_for(counted, timeout=10, what="both matches counted", explain=pipeline.explain())
    assert metric(text, "agon_matches_finished_total", game="akropolis", kind="validation") == 1
    assert metric(text, "agon_matches_finished_total", game="architekton", kind="challenge") == 1
    assert metric(text, "agon_bot_faults_total", game="akropolis", kind="crash") == 1
    assert metric(text, "agon_bot_faults_total") == 1
    assert metric(text, "agon_match_duration_seconds_count") == 2
    assert metric(text, "agon_match_duration_seconds_sum") == pytest.approx(
        sum(
            m.match_seconds or 0 for m in Match.objects.filter(id__in=[validation.id, challenge.id])
        )
    )


def test_a_worker_told_to_serve_metrics_without_a_multiprocess_folder_does_not_start(
    pipeline: Pipeline,
) -> None:
    with pytest.raises(AssertionError, match="needs PROMETHEUS_MULTIPROC_DIR"):
        pipeline.start_worker(env={"AGON_WORKER_METRICS_PORT": str(closed_port())})
