"""A bot that crashes in its validation, played by a real worker on each broker: its
owner is told once, on the site, by the console's e-mail (in the worker's output) and
by a signed webhook to a real local receiver that fails twice then recovers, the tries
sent through the broker's notifications queue after a doubling wait."""

from __future__ import annotations

import functools
import json

import pytest
from django.contrib.auth.models import User
from pytest_django import Settings

from agon.notifications.models import Delivery, Notification
from agon.notifications.payloads import verify
from agon.notifications.services import choices_set, email_set, webhook_create
from tests.platform.notifications.receiver import receiver
from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import (
    json_of,
    only_ladder,
    py_upload,
    signed_in_client,
    wait_for,
)
from tests.platform.pipeline.test_rejection import CRASHING_BOT

pytestmark = pytest.mark.django_db(transaction=True)


def settled(webhook_id: int) -> Delivery | None:
    delivery = Delivery.objects.filter(webhook_id=webhook_id).first()
    if delivery is None or delivery.status == Delivery.Status.PENDING:
        return None
    return delivery


def test_a_rejected_version_is_told_by_email_and_a_webhook_retried_until_it_answers(
    pipeline: Pipeline, broker: str, settings: Settings
) -> None:
    settings.AGON_WEBHOOKS_ALLOW_PRIVATE = True
    only_ladder("akropolis", 2)
    owner = signed_in_client("crasher")
    user = User.objects.get(username="crasher")
    email_set(user=user, email="crasher@example.org")
    choices_set(user=user, choices={"validation_failed": ["site", "email", "webhooks"]})
    failing: tuple[int, dict[str, str], bytes] = (502, {}, b"bad gateway")
    with receiver(failing, failing, (204, {}, b"")) as hook_server:
        hook = webhook_create(user=user, url=hook_server.url, style="generic")
        json_of(
            owner.post(
                "/api/bots/",
                {"name": "breaks", "game": "akropolis", "file": py_upload("main.py", CRASHING_BOT)},
                format="multipart",
            ),
            201,
        )
        worker = pipeline.start_worker(
            env={
                "AGON_WEBHOOKS_ALLOW_PRIVATE": "true",
                "AGON_NOTIFICATION_BACKOFF_SECONDS": "0.5",
                "AGON_SITE_URL": "https://agon.example",
            }
        )
        delivery = wait_for(
            functools.partial(settled, hook.id),
            timeout=120,
            what="the webhook's delivery to be settled",
            explain=pipeline.explain(),
        )

    assert (delivery.status, delivery.attempts, delivery.response_status) == ("delivered", 3, 204)
    assert len(hook_server.received) == 3
    for request in hook_server.received:
        headers = request.headers
        assert verify(
            hook.secret, headers["X-Agon-Timestamp"], request.body, headers["X-Agon-Signature"]
        )
    payload = json.loads(hook_server.received[-1].body)
    assert payload["kind"] == "validation_failed"
    assert payload["title"] == "breaks v1 failed its validation"
    assert payload["url"].startswith("https://agon.example/my/bots/")
    (notification,) = Notification.objects.filter(user=user)
    assert notification.on_site

    email = wait_for(
        lambda: Delivery.objects.filter(channel="email", status="delivered").first(),
        timeout=30,
        what="the e-mail to be delivered",
        explain=pipeline.explain(),
    )
    assert email.address == "crasher@example.org"
    log = worker.log()
    assert log.count("Subject: [Agon] breaks v1 failed its validation") == 1
    assert "To: crasher@example.org" in log
