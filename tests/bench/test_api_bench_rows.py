"""bench/api.py writes its rows with COPY, naming the columns it fills; every other column
gets what the model gives a new row, so a column added with a default needs no change to
the bench, and one without stops it with the column's name."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bench import api

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def test_a_column_the_bench_leaves_out_gets_the_models_default() -> None:
    filled = dict(api.model_filled_columns("bots_bot", ["id", "owner_id", "name", "game"], NOW))
    assert filled == {
        "created": NOW.isoformat(),
        "open_to_events": "f",
        "retired": api.NULL,
        "human_games": "t",
    }


def test_a_blank_text_a_nullable_and_a_json_column_get_theirs() -> None:
    written = ["id", "bot_id", "number", "archive", "filename", "sha256", "size", "created"]
    filled = dict(api.model_filled_columns("bots_botversion", written, NOW))
    assert filled["status"] == "validating"
    assert filled["reason"] == filled["paused_reason"] == filled["builtin"] == ""
    assert filled["faults_counted_from"] == api.NULL
    seat = ["id", "match_id", "seat", "version_id", "builtin", "rank", "score", "fault", "log"]
    seat_filled = dict(api.model_filled_columns("matches_matchseat", seat, NOW))
    assert seat_filled["log_turn_offsets"] == "[]"


def test_a_not_null_column_without_a_default_stops_the_load_naming_it() -> None:
    with pytest.raises(SystemExit, match=r"bots_botversion\.bot_id is NOT NULL without a default"):
        api.model_filled_columns("bots_botversion", ["id", "number"], NOW)


def test_values_are_escaped_for_copy() -> None:
    assert api.tsv("a\tb\nc\\d") == "a\\tb\\nc\\\\d"
    assert api.tsv({"k": "x\ty"}) == '{"k":"x\\\\ty"}'
    assert api.tsv(None) == api.NULL and api.tsv(True) == "t"
