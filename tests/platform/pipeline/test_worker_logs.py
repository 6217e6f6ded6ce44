"""A real worker with AGON_LOG_FORMAT=json writes JSON lines only, its match task's with
the match and task ids."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agon.matches.tasks import execute_queued_match
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

NO_SUCH_MATCH = 987654


def json_lines(log: str) -> list[dict[str, Any]]:
    """Every complete line of the log as JSON (the worker may be writing the last one)."""
    complete = log[: log.rfind("\n") + 1]
    return [json.loads(text) for text in complete.splitlines() if text.strip()]


def test_a_worker_logs_json_lines_only_and_its_tasks_carry_their_match(
    pipeline: Pipeline,
) -> None:
    worker = pipeline.start_worker(env={"AGON_LOG_FORMAT": "json"})
    sent = execute_queued_match.delay(NO_SUCH_MATCH)

    def task_lines() -> list[dict[str, Any]] | None:
        lines = json_lines(worker.log())
        return [line for line in lines if line.get("match_id") == NO_SUCH_MATCH] or None

    found = wait_for(task_lines, timeout=60, what="the task's log line", explain=pipeline.explain())

    assert [line["message"] for line in found] == [
        f"match {NO_SUCH_MATCH} is over or unknown; nothing to do"
    ]
    assert found[0]["task_id"] == sent.id
    assert found[0]["task"] == "agon.matches.tasks.execute_queued_match"
    assert found[0]["level"] == "INFO"
    lines = json_lines(worker.log())
    messages = [line["message"] for line in lines]
    assert any(message.startswith(f"worker {worker.name}@") for message in messages), (
        "the start-up banner is a record too"
    )
    assert any(message.endswith(" ready.") for message in messages)
    assert {"timestamp", "level", "logger", "message"} <= set.intersection(
        *(set(line) for line in lines)
    )
