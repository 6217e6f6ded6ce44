"""A match task sent under the task's old name (`agon.matches.tasks.run_match`, before it
had a name of its own) by a release before the upgrade is still played after it."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from agon.celery import app as celery_app
from agon.matches import services
from agon.matches.models import Match
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import wait_finished, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_message_queued_under_the_old_task_name_is_played_by_a_new_worker(
    pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "_enqueue", lambda match_id: None)  # sent by hand below
    match = services.match_create(
        kind=Match.Kind.CHALLENGE,
        game="akropolis",
        players=2,
        options={},
        seats=["random", "greedy"],
    )
    # What the release before the rename sent, queued before any worker of this one runs.
    celery_app.send_task(
        "agon.matches.tasks.run_match",
        args=(match.id,),
        queue=settings.AGON_MATCH_QUEUE_BY_KIND[Match.Kind.CHALLENGE],
    )

    worker = pipeline.start_worker()

    finished = wait_finished(match, pipeline.explain())
    assert finished.status == Match.Status.FINISHED
    wait_for(
        lambda: re.search(r"Task agon\.matches\.tasks\.run_match\[\S+\] succeeded", worker.log()),
        timeout=30,
        what="the worker to say the task of the old name succeeded",
        explain=pipeline.explain(),
    )
