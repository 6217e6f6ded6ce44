"""The match task has a name of its own (`execute_queued_match`, not the sandbox's
`run_match`); the name it had before is still registered, routed and run the same way,
for the messages an older release left in the queues."""

from __future__ import annotations

import pytest
from django.conf import settings

from agon.celery import app as celery_app
from agon.matches import services, tasks

OLD_NAME = "agon.matches.tasks.run_match"


def test_the_task_is_registered_under_its_own_name_and_its_old_one() -> None:
    assert tasks.execute_queued_match.name == services.MATCH_TASK
    assert services.MATCH_TASK_OLD_NAME == OLD_NAME
    assert tasks.execute_queued_match_by_old_name.name == OLD_NAME
    assert {services.MATCH_TASK, OLD_NAME} <= set(celery_app.tasks)


@pytest.mark.parametrize("name", [services.MATCH_TASK, OLD_NAME])
def test_both_names_go_to_the_match_queue_and_retry_alike(name: str) -> None:
    task = celery_app.tasks[name]
    assert celery_app.amqp.router.route({}, name)["queue"].name == settings.AGON_MATCH_QUEUE
    assert (task.acks_late, task.reject_on_worker_lost) == (True, True)
    assert task.max_retries == settings.AGON_MATCH_MAX_ATTEMPTS


@pytest.mark.django_db(transaction=True)  # the task closes the connection when it ends
def test_a_message_under_the_old_name_runs_the_match_task() -> None:
    """A match that is over or unknown: the task says there is nothing to do."""
    assert celery_app.tasks[OLD_NAME].apply(args=(987654,)).get() is False
