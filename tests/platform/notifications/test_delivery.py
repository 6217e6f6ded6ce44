"""Deliveries: sent after commit to the notifications queue, signed so that the snippet
of docs/notifications.md verifies them, tried again with a doubling wait against a real
local receiver that fails then recovers, given up after the bound; e-mail through the
console backend."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings

from agon.notifications.delivery import deliveries_overdue, delivery_attempt
from agon.notifications.kinds import KINDS
from agon.notifications.models import Delivery, Notification, Webhook
from agon.notifications.services import choices_set, email_set, notify, webhook_create
from tests.platform.notifications.conftest import SentTasks
from tests.platform.notifications.receiver import receiver

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[3] / "docs" / "notifications.md"


def docs_verifier() -> Callable[..., bool]:
    """The verification snippet of docs/notifications.md, run as a receiver would."""
    text = DOCS.read_text(encoding="utf-8")
    (code,) = [
        block for block in re.findall(r"```python\n(.*?)```", text, re.S) if "def verified" in block
    ]
    scope: dict[str, Any] = {}
    exec(code, scope)  # noqa: S102 - the documentation's own snippet
    verified: Callable[..., bool] = scope["verified"]
    return verified


@pytest.fixture
def local_receivers(settings: Settings) -> Settings:
    settings.AGON_WEBHOOKS_ALLOW_PRIVATE = True
    settings.AGON_NOTIFICATION_BACKOFF_SECONDS = 30.0
    settings.AGON_NOTIFICATION_MAX_ATTEMPTS = 4
    settings.AGON_WEBHOOK_TIMEOUT_SECONDS = 5.0
    settings.AGON_SITE_URL = "https://agon.example"
    return settings


def tell(user: User, title: str = "hero v2 failed its validation") -> Notification:
    notification = notify(
        user_id=user.id,
        kind="validation_failed",
        key=title,
        title=title,
        text="Rejected: it crashed <@everyone>",
        path="/my/bots/1/",
        data={"bot": 1},
    )
    assert notification is not None
    return notification


def test_deliveries_are_sent_to_their_queue_only_once_the_change_commits(
    alice: User,
    local_receivers: Settings,
    sent_tasks: SentTasks,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    email_set(user=alice, email="alice@example.org")
    choices_set(user=alice, choices={"validation_failed": ["site", "email", "webhooks"]})
    hook = webhook_create(user=alice, url="https://hooks.example.org/agon", style="generic")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        notification = tell(alice)
    assert sent_tasks.calls == [], "nothing is sent before the commit"
    for callback in callbacks:
        callback()
    deliveries = list(notification.deliveries.order_by("id"))
    assert [(d.channel, d.address) for d in deliveries] == [
        ("email", "alice@example.org"),
        ("webhook", hook.url),
    ]
    assert sent_tasks.calls == [(d.id, "notifications", None) for d in deliveries]
    again = notify(user_id=alice.id, kind="validation_failed", key=notification.title, title="x")
    assert again is None, "the same event again: no second notification"
    assert Delivery.objects.count() == 2


def test_a_receiver_that_fails_then_recovers_gets_it_once_signed_after_doubling_waits(
    alice: User, local_receivers: Settings, sent_tasks: SentTasks
) -> None:
    verified = docs_verifier()
    failing: tuple[int, dict[str, str], bytes] = (500, {}, b"down for maintenance " * 1000)
    with receiver(failing, failing, (200, {}, b"thanks")) as hook_server:
        hook = webhook_create(user=alice, url=hook_server.url, style="generic")
        notification = tell(alice)
        (delivery,) = notification.deliveries.all()
        start = timezone.now()

        assert delivery_attempt(delivery_id=delivery.id, now=start) == "pending"
        delivery.refresh_from_db()
        assert (delivery.attempts, delivery.response_status) == (1, 500)
        assert delivery.error == "HTTP 500", "the receiver's body is not kept"
        assert delivery.next_attempt == start + timedelta(seconds=30)
        assert sent_tasks.calls[-1] == (delivery.id, "notifications", 30.0)

        early = start + timedelta(seconds=29)
        assert delivery_attempt(delivery_id=delivery.id, now=early) == "not-due"
        second = start + timedelta(seconds=30)
        assert delivery_attempt(delivery_id=delivery.id, now=second) == "pending"
        assert sent_tasks.calls[-1] == (delivery.id, "notifications", 60.0)
        third = second + timedelta(seconds=60)
        assert delivery_attempt(delivery_id=delivery.id, now=third) == "delivered"
        assert delivery_attempt(delivery_id=delivery.id, now=third) == "not-due"

    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.response_status) == ("delivered", 3, 200)
    assert len(hook_server.received) == 3, "two failures, one success, nothing after"
    for request in hook_server.received:
        assert request.path == "/hook"
        assert request.headers["Host"] == hook_server.url.split("/")[2]
        assert request.headers["Content-Type"] == "application/json"
        assert request.headers["X-Agon-Event"] == "validation_failed"
        assert request.headers["X-Agon-Delivery"] == str(delivery.id)
        assert verified(hook.secret, request.headers, request.body)
        assert not verified("another secret", request.headers, request.body)
        assert not verified(hook.secret, request.headers, request.body + b" ")
    payload = json.loads(hook_server.received[-1].body)
    assert payload == {
        "id": notification.id,
        "kind": "validation_failed",
        "created": notification.created.isoformat(),
        "title": "hero v2 failed its validation",
        "text": "Rejected: it crashed <@everyone>",
        "url": "https://agon.example/my/bots/1/",
        "data": {"bot": 1},
    }


def test_it_is_given_up_after_the_last_try(
    alice: User, local_receivers: Settings, sent_tasks: SentTasks
) -> None:
    with receiver((503, {}, b"")) as hook_server:
        webhook_create(user=alice, url=hook_server.url, style="generic")
        (delivery,) = tell(alice).deliveries.all()
        now = timezone.now()
        results = []
        for _ in range(6):
            results.append(delivery_attempt(delivery_id=delivery.id, now=now))
            now += timedelta(hours=1)
    assert results == ["pending", "pending", "pending", "failed", "not-due", "not-due"]
    assert [countdown for _, _, countdown in sent_tasks.calls] == [30.0, 60.0, 120.0]
    assert len(hook_server.received) == 4
    delivery.refresh_from_db()
    assert delivery.status == "failed" and delivery.finished is not None


def test_a_redirect_is_not_followed(
    alice: User, local_receivers: Settings, sent_tasks: SentTasks
) -> None:
    with (
        receiver((200, {}, b"")) as elsewhere,
        receiver((307, {"Location": elsewhere.url}, b"")) as hook_server,
    ):
        webhook_create(user=alice, url=hook_server.url, style="generic")
        (delivery,) = tell(alice).deliveries.all()
        assert delivery_attempt(delivery_id=delivery.id) == "pending"
    delivery.refresh_from_db()
    assert delivery.error.startswith("HTTP 307: redirects are not followed")
    assert elsewhere.received == []


def test_a_receiver_that_dawdles_is_cut_off_at_the_timeout(
    alice: User, local_receivers: Settings, sent_tasks: SentTasks
) -> None:
    local_receivers.AGON_WEBHOOK_TIMEOUT_SECONDS = 0.5
    with receiver((200, {}, b"")) as hook_server:
        hook_server.delay = 2.0
        webhook_create(user=alice, url=hook_server.url, style="generic")
        (delivery,) = tell(alice).deliveries.all()
        assert delivery_attempt(delivery_id=delivery.id) == "pending"
    delivery.refresh_from_db()
    assert delivery.error == "no answer within 0.5 s"


def test_a_private_address_is_refused_at_the_send_without_the_setting(
    alice: User, local_receivers: Settings, sent_tasks: SentTasks
) -> None:
    with receiver() as hook_server:
        webhook_create(user=alice, url=hook_server.url, style="generic")  # allowed then
        (delivery,) = tell(alice).deliveries.all()
        local_receivers.AGON_WEBHOOKS_ALLOW_PRIVATE = False
        assert delivery_attempt(delivery_id=delivery.id) == "pending"
    delivery.refresh_from_db()
    assert delivery.error == "127.0.0.1 resolves to 127.0.0.1, not a public address"
    assert hook_server.received == []


def test_the_sweep_sends_overdue_deliveries_again_and_a_claimed_one_is_not_tried_twice(
    alice: User, local_receivers: Settings, sent_tasks: SentTasks
) -> None:
    webhook_create(user=alice, url="https://hooks.example.org/a", style="generic")
    (delivery,) = tell(alice).deliveries.all()
    now = timezone.now()
    assert deliveries_overdue(now=now) == [], "due now, not overdue yet"
    later = now + timedelta(seconds=local_receivers.AGON_NOTIFICATION_SWEEP_SECONDS + 1)
    assert deliveries_overdue(now=later) == [delivery.id]
    assert sent_tasks.ids == [delivery.id]
    # A try in progress moved its next try on: neither the sweep nor a duplicate takes it.
    Delivery.objects.filter(id=delivery.id).update(next_attempt=later + timedelta(minutes=1))
    assert delivery_attempt(delivery_id=delivery.id, now=later) == "not-due"
    assert deliveries_overdue(now=later) == []


def test_an_email_goes_through_the_console_backend(
    alice: User,
    local_receivers: Settings,
    sent_tasks: SentTasks,
    capsys: pytest.CaptureFixture[str],
) -> None:
    local_receivers.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    local_receivers.DEFAULT_FROM_EMAIL = "Agon <agon@agon.example>"
    email_set(user=alice, email="alice@example.org")
    choices_set(user=alice, choices={kind: ["email"] for kind in KINDS})
    notification = tell(alice)
    assert notification.on_site is False, "e-mail only: not on the site's page"
    (delivery,) = notification.deliveries.all()
    assert delivery_attempt(delivery_id=delivery.id) == "delivered"
    out = capsys.readouterr().out
    assert "Subject: [Agon] hero v2 failed its validation" in out
    assert "To: alice@example.org" in out
    assert "From: Agon <agon@agon.example>" in out
    assert "https://agon.example/my/bots/1/" in out
    assert "https://agon.example/my/notifications/settings/" in out


def test_no_address_no_email_and_no_webhook_of_another_user(
    alice: User, bob: User, local_receivers: Settings, sent_tasks: SentTasks
) -> None:
    choices_set(user=alice, choices={"validation_failed": ["email", "webhooks"]})
    webhook_create(user=bob, url="https://hooks.example.org/bob", style="slack")
    notification = tell(alice)
    assert notification.deliveries.count() == 0
    assert Webhook.objects.filter(user=bob).count() == 1
