"""Building a game's dataset: which matches go in, one row per decision, incremental
and resumable, and a match that stops qualifying taken out again."""

from __future__ import annotations

import io
import json
from typing import Any

import pyarrow.parquet as pq
import pytest
from django.core.files.storage import default_storage

from agon.bots.models import BotVersion
from agon.datasets import building
from agon.datasets.building import dataset_build
from agon.datasets.manifest import manifest_document, manifest_name
from agon.datasets.models import DatasetMatch, DatasetPart
from agon.ladders.models import Ladder
from agon.matches.models import Match
from tests.platform.datasets.conftest import GAME
from tests.platform.datasets.support import play_for_real, turn_milliseconds
from tests.platform.support import finish_match

pytestmark = pytest.mark.django_db(transaction=True)


def part_rows(part: DatasetPart) -> list[dict[str, Any]]:
    with default_storage.open(part.name, "rb") as stored:
        table = pq.read_table(io.BytesIO(stored.read()))
    rows: list[dict[str, Any]] = table.to_pylist()
    return rows


def all_rows() -> list[dict[str, Any]]:
    return [row for part in DatasetPart.objects.filter(game=GAME) for row in part_rows(part)]


def test_a_ranked_match_gives_one_row_per_decision_with_its_facts(
    ladder: Ladder, versions: list[BotVersion]
) -> None:
    match = play_for_real(ladder, versions, seed=11)
    report = dataset_build(game=GAME)
    assert report is not None and report.parts_written == 1
    rows = all_rows()
    with match.replay.open("rb") as stored:
        actions = json.loads(stored.read())["actions"]
    assert len(rows) == len(actions)
    assert [row["step"] for row in rows] == list(range(len(actions)))
    assert [json.loads(row["action"]) for row in rows] == actions
    seats = {seat.seat: seat for seat in match.seats.select_related("version")}
    for row in rows:
        seat = seats[row["seat"]]
        assert row["match_id"] == match.id and row["kind"] == "ranked"
        assert seat.version is not None
        assert row["bot"] == f"sha256:{seat.version.sha256}"
        assert (row["final_rank"], row["final_score"]) == (seat.rank, seat.score)
        assert 0 <= row["action_index"] < row["legal_actions"]
        assert row["by_stand_in"] is False
    for number in seats:
        moves = [row for row in rows if row["seat"] == number]
        assert [row["time_used_ms"] for row in moves] == turn_milliseconds(number)[: len(moves)]
    document = manifest_document(GAME)
    assert (document["matches"], document["rows"]) == (1, len(rows))
    with default_storage.open(manifest_name(GAME), "rb") as stored:
        assert json.loads(stored.read()) == json.loads(json.dumps(document))


def test_only_finished_public_ranked_and_tournament_matches_go_in(
    ladder: Ladder, versions: list[BotVersion]
) -> None:
    ranked = play_for_real(ladder, versions, seed=1)
    public_tournament = play_for_real(ladder, versions, seed=2, kind=Match.Kind.TOURNAMENT)
    play_for_real(ladder, versions, seed=3, kind=Match.Kind.TOURNAMENT, private=True)
    play_for_real(ladder, versions, seed=4, kind=Match.Kind.VERSION_TEST, private=True)
    play_for_real(ladder, versions, seed=5, kind=Match.Kind.CHALLENGE)
    validation = Match.objects.filter(game=GAME, kind=Match.Kind.VALIDATION)
    assert validation.filter(status=Match.Status.FINISHED).exists()
    dataset_build(game=GAME)
    assert {row["match_id"] for row in all_rows()} == {ranked.id, public_tournament.id}


def test_a_build_goes_on_where_the_last_one_stopped_and_never_twice(
    ladder: Ladder, versions: list[BotVersion]
) -> None:
    played = [play_for_real(ladder, versions, seed=seed).id for seed in range(5)]
    first = dataset_build(game=GAME, max_parts=1, part_matches=2)
    assert first is not None and first.matches_added == 2 and first.more_pending
    second = dataset_build(game=GAME, part_matches=2)
    assert second is not None and second.matches_added == 3 and not second.more_pending
    assert dataset_build(game=GAME, part_matches=2).matches_added == 0  # type: ignore[union-attr]
    assert list(DatasetPart.objects.values_list("number", "matches")) == [(1, 2), (2, 2), (3, 1)]
    ids = [row["match_id"] for row in all_rows()]
    assert sorted(set(ids)) == played
    assert len(ids) == sum(DatasetPart.objects.values_list("rows", flat=True))


def test_a_build_that_dies_before_recording_its_part_loses_and_duplicates_nothing(
    ladder: Ladder, versions: list[BotVersion], monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in range(3):
        play_for_real(ladder, versions, seed=seed)

    def dies(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the worker was killed")

    monkeypatch.setattr(DatasetMatch.objects, "bulk_create", dies)
    with pytest.raises(RuntimeError):
        dataset_build(game=GAME)
    stored_once = default_storage.listdir(f"datasets/{GAME}")[1]
    assert not DatasetPart.objects.exists() and len(stored_once) == 1
    monkeypatch.undo()
    report = dataset_build(game=GAME)
    assert report is not None and report.matches_added == 3
    (part,) = DatasetPart.objects.all()
    assert part.file_name in stored_once  # the same bytes, under the same name
    assert len({(row["match_id"], row["step"]) for row in all_rows()}) == part.rows


def test_a_part_file_nobody_lists_is_deleted_by_the_next_build(
    ladder: Ladder, versions: list[BotVersion], monkeypatch: pytest.MonkeyPatch
) -> None:
    play_for_real(ladder, versions, seed=1)

    def dies(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the worker was killed")

    monkeypatch.setattr(DatasetMatch.objects, "bulk_create", dies)
    with pytest.raises(RuntimeError):
        dataset_build(game=GAME)
    (orphan,) = default_storage.listdir(f"datasets/{GAME}")[1]
    monkeypatch.undo()
    play_for_real(ladder, versions, seed=2)  # the next part is another one
    dataset_build(game=GAME)
    (part,) = DatasetPart.objects.all()
    assert part.matches == 2
    assert sorted(default_storage.listdir(f"datasets/{GAME}")[1]) == sorted(
        [part.file_name, "manifest.json"]
    )
    assert orphan != part.file_name


def test_a_build_holding_the_dataset_keeps_another_out(
    ladder: Ladder, versions: list[BotVersion]
) -> None:
    play_for_real(ladder, versions, seed=1)
    assert building._claim(GAME)
    assert dataset_build(game=GAME) is None
    assert not DatasetMatch.objects.exists()


def test_a_match_made_private_after_it_was_included_is_taken_out_at_the_next_build(
    ladder: Ladder, versions: list[BotVersion]
) -> None:
    kept, hidden = (play_for_real(ladder, versions, seed=seed) for seed in (1, 2))
    dataset_build(game=GAME)
    (before,) = DatasetPart.objects.all()
    Match.objects.filter(id=hidden.id).update(private=True)
    report = dataset_build(game=GAME)
    assert report is not None and report.matches_withdrawn == 1
    (after,) = DatasetPart.objects.all()
    assert after.number == before.number and after.name != before.name
    assert not default_storage.exists(before.name)
    assert {row["match_id"] for row in all_rows()} == {kept.id}
    assert manifest_document(GAME)["matches"] == 1
    Match.objects.filter(id=kept.id).delete()
    dataset_build(game=GAME)
    assert not DatasetPart.objects.exists() and not default_storage.exists(after.name)


def test_a_match_whose_replay_no_longer_plays_is_left_out_and_counted(
    ladder: Ladder, versions: list[BotVersion]
) -> None:
    match = Match.objects.create(
        kind=Match.Kind.RANKED, ladder=ladder, game=GAME, players=2, options={}, seed=1
    )
    for seat, version in enumerate(versions):
        match.seats.create(seat=seat, version=version)
    finish_match(match, scores=[1, 0])
    match.refresh_from_db()
    with match.replay.open("rb") as stored:
        replay = json.loads(stored.read())
    replay["engine_version"] = "0-old"
    with default_storage.open(match.replay.name, "wb") as stored:
        stored.write(json.dumps(replay).encode())
    report = dataset_build(game=GAME)
    assert report is not None and report.parts_written == 0
    assert manifest_document(GAME)["matches_left_out"] == 1
    assert DatasetMatch.objects.get().skipped
