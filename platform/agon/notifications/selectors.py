"""Notification reads for the pages and the API."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import QuerySet

from agon.notifications.models import Delivery, Notification, Webhook

PAGE_NOTIFICATIONS = 50
LOG_DELIVERIES = 30


def notifications_shown(*, user: User) -> QuerySet[Notification]:
    """Every notification of the user's shown on the site, newest first."""
    return Notification.objects.filter(user=user, on_site=True).order_by("-id")


def notifications_recent(*, user: User) -> QuerySet[Notification]:
    """The user's last notifications shown on the site, newest first."""
    return notifications_shown(user=user)[:PAGE_NOTIFICATIONS]


def webhooks_of(*, user: User) -> QuerySet[Webhook]:
    return Webhook.objects.filter(user=user).order_by("id")


def webhook_of(*, user: User, webhook_id: int) -> Webhook | None:
    """One of the user's webhooks (None for another's)."""
    return Webhook.objects.filter(user=user, id=webhook_id).first()


def webhook_deliveries(*, webhook: Webhook) -> QuerySet[Delivery]:
    """Every delivery to one webhook, newest first, with its notification."""
    return Delivery.objects.filter(webhook=webhook).select_related("notification").order_by("-id")


def webhook_log(*, user: User) -> QuerySet[Delivery]:
    """The last deliveries to the user's webhooks and e-mail address, newest first."""
    return (
        Delivery.objects.filter(notification__user=user)
        .select_related("notification", "webhook")
        .order_by("-id")[:LOG_DELIVERIES]
    )
