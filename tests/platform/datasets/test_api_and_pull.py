"""The dataset through the API (`GET /api/games/{id}/datasets/`, each part's file with
`Range`) and `agon-kit dataset pull` against a live site: what is missing is downloaded,
what is here is skipped, a part half downloaded is continued, a damaged one replaced, a
withdrawn one removed."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from pytest_django.live_server_helper import LiveServer
from rest_framework.reverse import reverse as real
from rest_framework.test import APIClient

from agon.datasets.building import dataset_build
from agon.datasets.models import DatasetPart
from agon.matches.models import Match
from agon_kit.cli import main
from tests.platform.datasets.conftest import GAME

pytestmark = pytest.mark.django_db(transaction=True)


def streamed(response: object) -> bytes:
    return b"".join(response.streaming_content)  # type: ignore[attr-defined]


def test_the_api_lists_the_parts_with_their_addresses(
    played: list[Match], anonymous: APIClient
) -> None:
    dataset_build(game=GAME, part_matches=2)
    answer = anonymous.get(f"/api/games/{GAME}/datasets/")
    assert answer.status_code == 200
    document = answer.json()
    assert (document["game"], document["schema_version"], document["matches"]) == (GAME, 1, 3)
    assert "CC BY 4.0" in document["licence"]
    assert document["datasheet_url"].endswith(f"/games/{GAME}/dataset/")
    assert [part["matches"] for part in document["parts"]] == [2, 1]
    for part in document["parts"]:
        data = streamed(anonymous.get(part["url"]))
        assert len(data) == part["size"]
        assert hashlib.sha256(data).hexdigest() == part["sha256"]


def test_a_part_is_served_from_a_byte_on_to_resume(
    played: list[Match], anonymous: APIClient
) -> None:
    dataset_build(game=GAME)
    part = DatasetPart.objects.get()
    url = f"/api/games/{GAME}/datasets/files/{part.file_name}"
    whole = streamed(anonymous.get(url))
    rest = anonymous.get(url, HTTP_RANGE="bytes=100-")
    assert rest.status_code == 206
    assert rest["Content-Range"] == f"bytes 100-{part.size - 1}/{part.size}"
    assert streamed(rest) == whole[100:]
    assert anonymous.get(url, HTTP_RANGE=f"bytes={part.size}-").status_code == 416


def test_no_dataset_of_an_unknown_game_nor_an_unlisted_file(anonymous: APIClient) -> None:
    assert anonymous.get("/api/games/chess/datasets/").status_code == 404
    assert anonymous.get(f"/api/games/{GAME}/datasets/").json()["parts"] == []
    missing = f"/api/games/{GAME}/datasets/files/part-000001-000000000000.parquet"
    assert anonymous.get(missing).status_code == 404
    assert anonymous.get(f"/api/games/{GAME}/datasets/files/..%2Fmanifest.json").status_code == 404


def pull(live_server: LiveServer, out: Path, *more: str) -> int:
    return main(["dataset", "pull", GAME, "--server", live_server.url, "--out", str(out), *more])


def test_pull_downloads_what_is_missing_resumes_and_follows_withdrawals(
    played: list[Match],
    live_server: LiveServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    dataset_build(game=GAME, part_matches=2)
    out = tmp_path / "data"
    assert pull(live_server, out) == 0
    first, second = DatasetPart.objects.order_by("number")
    assert sorted(path.name for path in out.iterdir()) == sorted(
        [first.file_name, second.file_name, "manifest.json"]
    )
    rows = (
        pq.read_table(out / first.file_name).num_rows
        + pq.read_table(out / second.file_name).num_rows
    )
    assert rows == json.loads((out / "manifest.json").read_text())["rows"]
    assert "2 parts downloaded" in capsys.readouterr().out

    assert pull(live_server, out) == 0
    assert "0 parts downloaded (0 bytes), 2 already here" in capsys.readouterr().out

    # Half of one part, as an interrupted pull leaves it; the other damaged.
    data = (out / first.file_name).read_bytes()
    (out / first.file_name).unlink()
    (out / f"{first.file_name}.partial").write_bytes(data[: len(data) // 2])
    (out / second.file_name).write_bytes(b"damaged")
    assert pull(live_server, out) == 0
    said = capsys.readouterr().out
    assert f"2 parts downloaded ({len(data) - len(data) // 2 + second.size} bytes)" in said
    assert (out / first.file_name).read_bytes() == data
    assert not (out / f"{first.file_name}.partial").exists()

    # A match made private: its part is written again under a new name.
    Match.objects.filter(id=played[0].id).update(private=True)
    dataset_build(game=GAME, part_matches=2)
    assert pull(live_server, out) == 0
    assert "1 withdrawn by the site removed" in capsys.readouterr().out
    assert not (out / first.file_name).exists()
    ids = {
        match_id
        for path in out.glob("*.parquet")
        for match_id in pq.read_table(path).column("match_id").to_pylist()
    }
    assert ids == {played[1].id, played[2].id}


def test_pull_since_a_date_takes_only_the_parts_written_since(
    played: list[Match], live_server: LiveServer, tmp_path: Path
) -> None:
    dataset_build(game=GAME, part_matches=2)
    DatasetPart.objects.filter(number=1).update(built="2020-01-01T00:00:00Z")
    out = tmp_path / "data"
    assert pull(live_server, out, "--since", "2021-01-01") == 0
    assert [path.name for path in out.glob("*.parquet")] == [
        DatasetPart.objects.get(number=2).file_name
    ]


def test_pull_refuses_a_part_sent_elsewhere(
    played: list[Match],
    live_server: LiveServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    dataset_build(game=GAME)

    def elsewhere(name: str, *args: object, **kwargs: object) -> str:
        url = real(name, *args, **kwargs)  # type: ignore[arg-type]
        return "http://example.invalid/x.parquet" if name == "dataset-file" else str(url)

    monkeypatch.setattr("agon.api.datasets.reverse", elsewhere)
    assert pull(live_server, tmp_path / "data") == 2
    assert "elsewhere: refused" in capsys.readouterr().err
