"""Sending a notification's deliveries, from the notifications queue only.

Each delivery is a task on AGON_NOTIFICATION_QUEUE, sent once the transaction that made
it commits. A try first claims the delivery (a conditional update that moves its next
try on), so a task sent twice, or by the sweep while another waits, sends nothing twice
at once. A failed try is tried again after AGON_NOTIFICATION_BACKOFF_SECONDS, doubled at
each failure, until AGON_NOTIFICATION_MAX_ATTEMPTS tries failed: then it is given up.
Beat's sweep sends the task again for any delivery whose try is overdue (its message
lost, its worker killed)."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from agon.celery import app as celery_app
from agon.notifications.models import ERROR_MAX, Delivery
from agon.notifications.outbound import SendError, post
from agon.notifications.payloads import (
    DELIVERY_HEADER,
    EVENT_HEADER,
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    body_of,
    sign,
)

log = logging.getLogger(__name__)

DELIVER_TASK = "agon.notifications.tasks.deliver"
USER_AGENT = "Agon-Webhook/1"


def deliveries_send_on_commit(delivery_ids: Sequence[int]) -> None:
    """Hand the deliveries to the notifications queue once the transaction commits
    (a rolled back change tells nobody)."""
    ids = list(delivery_ids)
    transaction.on_commit(lambda: _send_tasks(ids))


def _send_tasks(delivery_ids: Sequence[int], countdown: float = 0) -> None:
    for delivery_id in delivery_ids:
        celery_app.send_task(
            DELIVER_TASK,
            args=(delivery_id,),
            queue=settings.AGON_NOTIFICATION_QUEUE,
            countdown=countdown or None,
        )


def backoff(attempts: int) -> float:
    """Seconds to wait after the `attempts`-th failed try."""
    return float(settings.AGON_NOTIFICATION_BACKOFF_SECONDS * 2 ** (attempts - 1))


def lease_seconds() -> float:
    """How long a claimed try may take before the sweep may try it again."""
    return float(settings.AGON_WEBHOOK_TIMEOUT_SECONDS * 2 + 30)


def delivery_attempt(*, delivery_id: int, now: datetime | None = None) -> str:
    """Try a delivery that is due: its status after the try, or "not-due" when it is
    delivered, given up, claimed by another try or waiting for its next try."""
    now = now or timezone.now()
    claimed = Delivery.objects.filter(
        id=delivery_id, status=Delivery.Status.PENDING, next_attempt__lte=now
    ).update(attempts=F("attempts") + 1, next_attempt=now + timedelta(seconds=lease_seconds()))
    if claimed != 1:
        return "not-due"
    delivery = Delivery.objects.select_related("notification", "webhook").get(id=delivery_id)
    status: int | None = None
    try:
        if delivery.channel == Delivery.Channel.EMAIL:
            _send_email(delivery)
        else:
            status = _send_webhook(delivery)
    except SendError as error:
        return _failed(delivery, str(error), error.status, now)
    Delivery.objects.filter(id=delivery.id).update(
        status=Delivery.Status.DELIVERED,
        response_status=status,
        error="",
        finished=timezone.now(),
    )
    return Delivery.Status.DELIVERED


def _failed(delivery: Delivery, error: str, status: int | None, now: datetime) -> str:
    given_up = delivery.attempts >= settings.AGON_NOTIFICATION_MAX_ATTEMPTS
    wait = backoff(delivery.attempts)
    Delivery.objects.filter(id=delivery.id).update(
        status=Delivery.Status.FAILED if given_up else Delivery.Status.PENDING,
        response_status=status,
        error=error[:ERROR_MAX],
        next_attempt=now + timedelta(seconds=wait),
        finished=timezone.now() if given_up else None,
    )
    log.info(
        "notification delivery %s try %s failed%s: %s",
        delivery.id,
        delivery.attempts,
        ", given up" if given_up else f", again in {wait:g} s",
        error,
    )
    if given_up:
        return Delivery.Status.FAILED
    _send_tasks([delivery.id], countdown=wait)
    return Delivery.Status.PENDING


def _send_email(delivery: Delivery) -> None:
    notification = delivery.notification
    site = settings.AGON_SITE_URL.rstrip("/")
    lines = [notification.text]
    if notification.path:
        lines += ["", f"{site}{notification.path}"]
    lines += ["", f"Choose what you are told: {site}{reverse('web:notification-settings')}"]
    try:
        send_mail(
            subject=f"[Agon] {' '.join(notification.title.split())}",  # one header line
            message="\n".join(lines),
            from_email=None,  # DEFAULT_FROM_EMAIL
            recipient_list=[delivery.address],
        )
    except (OSError, ValueError) as error:  # smtplib's errors are OSErrors
        raise SendError(f"{type(error).__name__}: {error}") from None


def _send_webhook(delivery: Delivery) -> int:
    webhook = delivery.webhook
    if webhook is None:
        raise SendError("the webhook was removed")
    body = body_of(delivery.notification, webhook.style, settings.AGON_SITE_URL)
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        EVENT_HEADER: delivery.notification.kind,
        DELIVERY_HEADER: str(delivery.id),
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: sign(webhook.secret, timestamp, body),
    }
    response = post(
        webhook.url,
        body,
        headers,
        timeout=settings.AGON_WEBHOOK_TIMEOUT_SECONDS,
        max_response_bytes=settings.AGON_WEBHOOK_RESPONSE_BYTES,
    )
    return response.status


def deliveries_overdue(*, now: datetime | None = None) -> list[int]:
    """Send the task again for every pending delivery whose try is overdue by more than
    AGON_NOTIFICATION_SWEEP_SECONDS (a lost message, a killed worker); their ids."""
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.AGON_NOTIFICATION_SWEEP_SECONDS)
    ids = list(
        Delivery.objects.filter(status=Delivery.Status.PENDING, next_attempt__lte=limit)
        .order_by("next_attempt")
        .values_list("id", flat=True)[:1000]
    )
    _send_tasks(ids)
    return ids
