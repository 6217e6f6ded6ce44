"""A user's choices, their notifications, their webhooks and each delivery's log."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.db import models

TITLE_MAX = 200
TEXT_MAX = 2000
URL_MAX = 500
ERROR_MAX = 300


class Choice(models.Model):
    """Where one kind of event goes for one user; without a row, the kind's defaults."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_choices"
    )
    kind = models.CharField(max_length=40)
    """A name of agon.notifications.kinds.KINDS."""
    site = models.BooleanField(default=True)
    email = models.BooleanField(default=False)
    webhooks = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="notification_choice_per_kind")
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.kind}"


class Notification(models.Model):
    """Something that happened, told to one user once: `key` names the event (a kind and
    the ids it is about), and one user has one notification per key."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=40)
    key = models.CharField(max_length=200)
    title = models.CharField(max_length=TITLE_MAX)
    text = models.TextField(blank=True)
    path = models.CharField(max_length=300, blank=True)
    """The site's page about it (a path: the payloads make it absolute)."""
    data = models.JSONField(default=dict, blank=True)
    """The event's facts for machines (ids, names, numbers): the generic payload's `data`."""
    on_site = models.BooleanField(default=True)
    """Shown on the notifications page (the user's choice for its kind)."""
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="one_notification_per_event")
        ]
        indexes = [models.Index(fields=["user", "-id"], name="notifications_recent")]

    def __str__(self) -> str:
        return f"{self.user}: {self.title}"


class Webhook(models.Model):
    class Style(models.TextChoices):
        GENERIC = "generic", "Generic JSON (signed)"
        DISCORD = "discord", "Discord"
        SLACK = "slack", "Slack"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.CharField(max_length=URL_MAX)
    """Checked by agon.notifications.addresses when made, and its addresses when sent."""
    style = models.CharField(max_length=16, choices=Style.choices, default=Style.GENERIC)
    secret = models.CharField(max_length=64)
    """The key of its signatures: shown to its owner only."""
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.user}: {self.url}"


class Delivery(models.Model):
    """One notification sent to one channel: an e-mail, or one webhook. Tried until it
    is delivered or AGON_NOTIFICATION_MAX_ATTEMPTS tries failed."""

    class Channel(models.TextChoices):
        EMAIL = "email"
        WEBHOOK = "webhook"

    class Status(models.TextChoices):
        PENDING = "pending"
        DELIVERED = "delivered"
        FAILED = "failed"
        """Given up after the last try."""

    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="deliveries"
    )
    channel = models.CharField(max_length=16, choices=Channel.choices)
    webhook = models.ForeignKey(
        Webhook, null=True, blank=True, on_delete=models.CASCADE, related_name="deliveries"
    )
    address = models.CharField(max_length=URL_MAX)
    """The e-mail address or the webhook's URL when the notification was made."""
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt = models.DateTimeField()
    """When it is tried next (while pending): a try claims it by moving this on."""
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    """The webhook's last HTTP status."""
    error = models.CharField(max_length=ERROR_MAX, blank=True)
    """Why the last try failed (bounded; a receiver's body is never stored whole)."""
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["notification", "webhook"], name="one_delivery_per_webhook"
            ),
            models.UniqueConstraint(
                fields=["notification"],
                condition=models.Q(channel="email"),
                name="one_email_per_notification",
            ),
        ]
        indexes = [models.Index(fields=["status", "next_attempt"], name="deliveries_due")]
        verbose_name_plural = "deliveries"

    def __str__(self) -> str:
        return f"{self.channel} of {self.notification_id} ({self.status})"

    @property
    def host(self) -> str:
        """The webhook's host, as the log shows it (its whole URL is a tooltip)."""
        return urlsplit(self.address).hostname or self.address
