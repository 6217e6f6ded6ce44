"""Notification writes: an event told to a user (inside the transaction of the change it
tells of, so it is told exactly when the change commits, and once: one notification per
user and event key), the user's choices, e-mail address and webhooks.

Nothing is sent here: the deliveries are handed to the notifications queue once the
transaction commits (agon.notifications.delivery), never sent from a request."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from agon.notifications.addresses import webhook_url_check
from agon.notifications.delivery import deliveries_send_on_commit
from agon.notifications.kinds import CHANNELS, EMAIL, KINDS, SITE, WEBHOOKS, kind_of
from agon.notifications.models import TEXT_MAX, TITLE_MAX, Choice, Delivery, Notification, Webhook


def channels_of(*, user_id: int, kind: str) -> frozenset[str]:
    """Where the user wants this kind of event told."""
    choice = Choice.objects.filter(user_id=user_id, kind=kind).first()
    if choice is None:
        return kind_of(kind).default_channels
    return frozenset(channel for channel in CHANNELS if getattr(choice, channel))


def notify(
    *,
    user_id: int,
    kind: str,
    key: str,
    title: str,
    text: str = "",
    path: str = "",
    data: Mapping[str, Any] | None = None,
) -> Notification | None:
    """Tell the user of an event (call inside the transaction of the change): the
    notification, or None if they want no word of this kind or were told already (one
    notification per user and `key`, whatever retries the caller goes through)."""
    channels = channels_of(user_id=user_id, kind=kind)
    if not channels:
        return None
    user = User.objects.get(id=user_id)
    try:
        with transaction.atomic():  # a savepoint: the event told at the same time elsewhere
            notification = Notification.objects.create(
                user=user,
                kind=kind,
                key=f"{kind}:{key}"[:200],
                title=title[:TITLE_MAX],
                text=text[:TEXT_MAX],
                path=path,
                data=dict(data or {}),
                on_site=SITE in channels,
            )
    except IntegrityError:
        return None
    now = timezone.now()
    deliveries = []
    if EMAIL in channels and user.email:
        deliveries.append(
            Delivery(
                notification=notification,
                channel=Delivery.Channel.EMAIL,
                address=user.email,
                next_attempt=now,
            )
        )
    if WEBHOOKS in channels:
        deliveries.extend(
            Delivery(
                notification=notification,
                channel=Delivery.Channel.WEBHOOK,
                webhook=webhook,
                address=webhook.url,
                next_attempt=now,
            )
            for webhook in Webhook.objects.filter(user=user)
        )
    if deliveries:
        made = Delivery.objects.bulk_create(deliveries)
        deliveries_send_on_commit([delivery.id for delivery in made])
    return notification


def notify_all(
    *, user_ids: Iterable[int], kind: str, key: str, title: str, **fields: Any
) -> list[Notification]:
    """`notify` each user once (a user named twice is told once)."""
    told = []
    for user_id in sorted(set(user_ids)):
        notification = notify(user_id=user_id, kind=kind, key=key, title=title, **fields)
        if notification is not None:
            told.append(notification)
    return told


@transaction.atomic
def choices_set(*, user: User, choices: Mapping[str, Iterable[str]]) -> None:
    """The channels the user wants for each kind named (kinds not named keep theirs)."""
    for kind, wanted in choices.items():
        kind_of(kind)
        channels = set(wanted)
        unknown = channels - set(CHANNELS)
        if unknown:
            raise ValidationError(f"no channel called {', '.join(sorted(unknown))}")
        Choice.objects.update_or_create(
            user=user,
            kind=kind,
            defaults={channel: channel in channels for channel in CHANNELS},
        )


@transaction.atomic
def choices_update(*, user: User, changes: Mapping[str, Mapping[str, bool]]) -> None:
    """Turn channels of the kinds named on or off (`{"bot_paused": {"email": True}}`);
    the channels and kinds not named keep theirs."""
    User.objects.select_for_update().get(id=user.id)  # two changes at once: each sees the other
    current = choices_of(user=user)
    wanted = {}
    for kind, switches in changes.items():
        kind_of(kind)
        channels = set(current[kind])
        for channel, on in switches.items():
            if channel not in CHANNELS:
                raise ValidationError(f"no channel called {channel}")
            if on:
                channels.add(channel)
            else:
                channels.discard(channel)
        wanted[kind] = channels
    choices_set(user=user, choices=wanted)


@transaction.atomic
def notification_settings_update(
    *, user: User, changes: Mapping[str, Mapping[str, bool]], email: str | None = None
) -> None:
    """The API's settings: the channels switched (`choices_update`) and, unless None,
    the e-mail address ("" for none)."""
    if email is not None:
        email_set(user=user, email=email)
    choices_update(user=user, changes=changes)


def choices_of(*, user: User) -> dict[str, frozenset[str]]:
    """Every kind's channels for the user, in the order of KINDS."""
    rows = {choice.kind: choice for choice in Choice.objects.filter(user=user)}
    return {
        kind: (
            frozenset(c for c in CHANNELS if getattr(rows[kind], c))
            if kind in rows
            else KINDS[kind].default_channels
        )
        for kind in KINDS
    }


@transaction.atomic
def email_set(*, user: User, email: str) -> User:
    """The address e-mail notifications go to (empty: none)."""
    email = email.strip()
    if email:
        validate_email(email)
    user.email = email
    user.save(update_fields=["email"])
    return user


@transaction.atomic
def webhook_create(*, user: User, url: str, style: str) -> Webhook:
    """A new webhook of the user's, with a secret of its own to sign with."""
    if style not in Webhook.Style.values:
        raise ValidationError(f"no webhook style called {style!r}")
    url = webhook_url_check(url)
    User.objects.select_for_update().get(id=user.id)  # the limit, counted one at a time
    most = settings.AGON_WEBHOOKS_PER_USER
    if Webhook.objects.filter(user=user).count() >= most:
        raise ValidationError(f"you have {most} webhooks already, the most one may have")
    return Webhook.objects.create(user=user, url=url, style=style, secret=secrets.token_hex(32))


@transaction.atomic
def webhook_delete(*, user: User, webhook_id: int) -> bool:
    """Remove one of the user's webhooks (with its log); whether there was one."""
    deleted, _ = Webhook.objects.filter(user=user, id=webhook_id).delete()
    return deleted > 0


TEST_KIND = "test"
"""The kind of the notification a user sends to one webhook of theirs to try it (not
one of KINDS: nobody chooses it, it goes to that webhook alone)."""


@transaction.atomic
def webhook_test_send(*, user: User, webhook_id: int) -> Delivery:
    """A test notification to one of the user's webhooks (Webhook.DoesNotExist for
    another's), sent from the queue as any other; not shown on the notifications page."""
    webhook = Webhook.objects.get(user=user, id=webhook_id)
    notification = Notification.objects.create(
        user=user,
        kind=TEST_KIND,
        key=f"{TEST_KIND}:{uuid.uuid4().hex}",
        title="A test notification from Agon",
        text="Your webhook works: this is how Agon tells you what happens to your bots.",
        path=reverse("web:notification-settings"),
        data={"webhook": webhook.id},
        on_site=False,
    )
    delivery = Delivery.objects.create(
        notification=notification,
        channel=Delivery.Channel.WEBHOOK,
        webhook=webhook,
        address=webhook.url,
        next_attempt=timezone.now(),
    )
    deliveries_send_on_commit([delivery.id])
    return delivery
