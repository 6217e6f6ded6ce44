"""Beat builds the datasets on its own: a real worker running Celery beat, on the
settings' schedule (AGON_DATASET_SECONDS shortened), writes each game's parts and
manifest from the public matches that finished, and the API lists them."""

from __future__ import annotations

import json

import pytest
from django.core.files.storage import default_storage
from rest_framework.test import APIClient

from agon.datasets.manifest import manifest_name
from agon.datasets.models import DatasetPart
from agon.matches import services
from agon.matches.models import Match
from sandbox.limits import limits_for
from sandbox.runner import MatchRecord
from tests.platform.datasets.support import played_replay
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import wait_for
from tests.platform.support import finish_with, seat_report

pytestmark = pytest.mark.django_db(transaction=True)


def finished_match(game: str, *, seed: int, private: bool = False) -> Match:
    kind = Match.Kind.TOURNAMENT if private else Match.Kind.RANKED
    match = services.match_create(
        kind=kind,
        game=game,
        players=2,
        options={},
        seats=["random", "greedy"],
        seed=seed,
        private=private,
    )
    record = MatchRecord(
        replay=played_replay(match),
        seats=[seat_report(), seat_report()],
        backend="played in process by the test",
        limits=limits_for(game),
        match_seconds=0.5,
    )
    return finish_with(match, record)


def test_beat_writes_the_parts_and_the_manifest_of_the_public_matches(
    pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "_enqueue", lambda match_id: None)  # finished here
    public = [finished_match("architekton", seed=seed) for seed in (1, 2)]
    finished_match("architekton", seed=3, private=True)
    pipeline.start_worker(beat=True, env={"AGON_DATASET_SECONDS": "2"})
    wait_for(
        lambda: (
            DatasetPart.objects.filter(game="architekton").exists()
            and default_storage.exists(manifest_name("architekton"))
        ),
        timeout=90,
        what="beat to build the architekton dataset",
        explain=pipeline.explain(),
    )
    with default_storage.open(manifest_name("architekton"), "rb") as stored:
        manifest = json.loads(stored.read())
    assert manifest["matches"] == 2 and manifest["schema_version"] == 1
    (part,) = DatasetPart.objects.filter(game="architekton")
    assert (part.first_match, part.last_match) == (public[0].id, public[1].id)
    listed = APIClient().get("/api/games/architekton/datasets/").json()
    assert [entry["sha256"] for entry in listed["parts"]] == [part.sha256]
