"""Replays and bot archives in an S3-compatible bucket: a real S3 HTTP server (moto's),
an upload through the API, a real worker that reads the archive from the bucket, plays
the validation match in real boxes and stores the replay there, and the API serving it."""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from pytest_django import Settings
from rest_framework.test import APIClient

from agon.bots.models import BotVersion
from agon.env import EnvError
from agon.matches.models import Match
from agon.matches.stored_timelines import timeline_name
from agon.storage import s3_storage_from_env
from engine.replay import Replay, verify_replay
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import (
    EXAMPLE_BOTS,
    json_of,
    only_ladder,
    py_upload,
    wait_active,
)
from tests.platform.s3 import Bucket, moto_bucket

PREFIX = "agon-test"


@pytest.fixture
def s3_bucket(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> Iterator[Bucket]:
    """An empty bucket on moto's S3 server; the environment names it as production would
    (workers started now inherit it), and this process's default storage is the bucket,
    built from that environment."""
    with moto_bucket() as bucket:
        for name, value in bucket.environment(f"/{PREFIX}/").items():
            monkeypatch.setenv(name, value)
        settings.STORAGES = {**settings.STORAGES, "default": s3_storage_from_env()}
        yield bucket


def files_under(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*") if path.is_file())


@pytest.mark.django_db(transaction=True)
def test_it_keeps_archives_and_replays_in_the_bucket_through_upload_match_and_api(
    pipeline: Pipeline, s3_bucket: Bucket
) -> None:
    only_ladder("akropolis", 2)
    client = APIClient()
    credentials = {"username": "dora", "password": "buckets hold replays"}
    json_of(client.post("/api/auth/register/", credentials), 201)
    token = json_of(client.post("/api/auth/token/", credentials))["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    source = (EXAMPLE_BOTS / "random_bot.py").read_bytes()
    created = json_of(
        client.post(
            "/api/bots/",
            {"name": "cloud", "game": "akropolis", "file": py_upload("random_bot.py", source)},
            format="multipart",
        ),
        201,
    )
    version = BotVersion.objects.get(bot_id=created["id"], number=1)
    archive_key = f"{PREFIX}/{version.archive.name}"
    assert s3_bucket.objects() == {archive_key: source}, "the upload went to the bucket"

    # The worker reads the archive from the bucket, plays, and stores the replay there.
    pipeline.start_worker()
    wait_active(version, pipeline.explain())
    match = Match.objects.get(kind=Match.Kind.VALIDATION, seats__version=version)
    assert match.status == Match.Status.FINISHED

    response: Any = client.get(f"/api/matches/{match.id}/replay/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    served = b"".join(response.streaming_content)
    replay = Replay.from_json(json.loads(served))
    verify_replay(replay)
    assert replay.seed == match.seed
    assert replay.result["ranks"] == match.ranks

    replay_key = f"{PREFIX}/{match.replay.name}"
    assert match.replay.name == f"replays/match-{match.id}.json"
    timeline_key = f"{PREFIX}/{timeline_name(match.replay.name, match.game)}"
    objects = s3_bucket.settled({archive_key, replay_key, timeline_key})
    assert timeline_key in objects, sorted(objects)
    stored_timeline = objects.pop(timeline_key)
    assert objects == {archive_key: source, replay_key: served}, (
        "the archive, the replay and its timeline are in the bucket; the moves written "
        "while the match ran (live/) were removed"
    )

    timeline = json_of(client.get(f"/api/matches/{match.id}/timeline/"))
    assert json.loads(gzip.decompress(stored_timeline)) == timeline["steps"]
    assert (timeline["total"], timeline["error"]) == (len(replay.actions) + 1, ""), (
        "the viewer's timeline replays the stored replay read back from the bucket"
    )
    download: Any = client.get(f"/api/bots/{created['id']}/versions/1/download/")
    assert download.status_code == 200
    assert hashlib.sha256(b"".join(download.streaming_content)).hexdigest() == version.sha256
    assert files_under(Path(settings.MEDIA_ROOT)) == [], "nothing was stored on the local disk"


def test_it_refuses_half_of_a_key_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGON_S3_BUCKET", "agon-media")
    monkeypatch.setenv("AGON_S3_ACCESS_KEY_ID", "only-the-id")
    monkeypatch.delenv("AGON_S3_SECRET_ACCESS_KEY", raising=False)
    with pytest.raises(EnvError, match="go together"):
        s3_storage_from_env()


def test_it_refuses_an_endpoint_that_is_not_a_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGON_S3_BUCKET", "agon-media")
    monkeypatch.setenv("AGON_S3_ENDPOINT_URL", "minio:9000")
    with pytest.raises(EnvError, match="AGON_S3_ENDPOINT_URL"):
        s3_storage_from_env()
