"""Fixtures of the notification tests: the tasks sent to the broker, recorded instead."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from agon.notifications import delivery


@dataclass
class SentTasks:
    """The delivery tasks sent: (delivery id, queue, countdown)."""

    calls: list[tuple[int, str, float | None]] = field(default_factory=list)

    @property
    def ids(self) -> list[int]:
        return [delivery_id for delivery_id, _, _ in self.calls]


@pytest.fixture
def sent_tasks(monkeypatch: pytest.MonkeyPatch) -> SentTasks:
    sent = SentTasks()

    class RecordingCelery:
        @staticmethod
        def send_task(
            name: str, args: tuple[int], queue: str, countdown: float | None = None
        ) -> None:
            assert name == delivery.DELIVER_TASK
            sent.calls.append((args[0], queue, countdown))

    monkeypatch.setattr(delivery, "celery_app", RecordingCelery)
    return sent
