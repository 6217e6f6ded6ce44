"""The datasets in an S3-compatible bucket (moto's real S3 server): parts and manifest
stored there, a part written again from the bucket when a match is withdrawn, a part
served from a byte on, and nothing left in the bucket that the manifest does not list."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator

import pytest
from pytest_django import Settings
from rest_framework.test import APIClient

from agon.datasets.building import dataset_build
from agon.datasets.models import DatasetPart
from agon.matches.models import Match
from agon.storage import s3_storage_from_env
from tests.platform.datasets.conftest import GAME
from tests.platform.s3 import Bucket, moto_bucket

pytestmark = pytest.mark.django_db(transaction=True)
PREFIX = "agon-datasets-test"


@pytest.fixture
def s3_bucket(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> Iterator[Bucket]:
    with moto_bucket() as bucket:
        for name, value in bucket.environment(f"/{PREFIX}/").items():
            monkeypatch.setenv(name, value)
        settings.STORAGES = {**settings.STORAGES, "default": s3_storage_from_env()}
        yield bucket


def dataset_objects(bucket: Bucket) -> dict[str, bytes]:
    folder = f"{PREFIX}/datasets/{GAME}/"
    return {
        key.removeprefix(folder): data
        for key, data in bucket.objects().items()
        if key.startswith(folder)
    }


def test_the_dataset_lives_in_the_bucket(
    s3_bucket: Bucket, played: list[Match], anonymous: APIClient
) -> None:
    dataset_build(game=GAME, part_matches=2)
    first, second = DatasetPart.objects.order_by("number")
    stored = dataset_objects(s3_bucket)
    assert set(stored) == {first.file_name, second.file_name, "manifest.json"}
    assert hashlib.sha256(stored[first.file_name]).hexdigest() == first.sha256
    assert json.loads(stored["manifest.json"])["matches"] == 3

    Match.objects.filter(id=played[0].id).update(private=True)
    dataset_build(game=GAME, part_matches=2)
    rewritten = DatasetPart.objects.get(number=1)
    assert rewritten.matches == 1 and rewritten.name != first.name
    stored = dataset_objects(s3_bucket)
    assert set(stored) == {rewritten.file_name, second.file_name, "manifest.json"}

    url = f"/api/games/{GAME}/datasets/files/{rewritten.file_name}"
    answer = anonymous.get(url, HTTP_RANGE="bytes=10-")
    assert answer.status_code == 206
    data = b"".join(answer.streaming_content)  # type: ignore[attr-defined]
    assert data == stored[rewritten.file_name][10:]
