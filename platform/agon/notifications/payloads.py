"""What a webhook receives: the body in the webhook's style and its signature.

Generic receivers get the notification as JSON and verify it: the header
`X-Agon-Signature: v1=<hex>` is HMAC-SHA256, keyed with the webhook's secret, over
`<timestamp>.<body>`, the exact bytes of the body after the value of `X-Agon-Timestamp`
(seconds since 1970) and a dot; a receiver refuses a timestamp far from its clock, so a
body seen once cannot be sent again later. Discord and Slack get the shapes their
incoming webhooks take (they ignore the signature)."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

from agon.notifications.models import Notification, Webhook

SIGNATURE_HEADER = "X-Agon-Signature"
TIMESTAMP_HEADER = "X-Agon-Timestamp"
EVENT_HEADER = "X-Agon-Event"
DELIVERY_HEADER = "X-Agon-Delivery"
SIGNATURE_VERSION = "v1"
DISCORD_CONTENT_MAX = 2000
SLACK_TEXT_MAX = 3000


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The signature header's value for `body` sent at `timestamp`."""
    message = str(timestamp).encode() + b"." + body
    digest = hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()
    return f"{SIGNATURE_VERSION}={digest}"


def verify(secret: str, timestamp: str, body: bytes, signature: str) -> bool:
    """What a receiver does (docs/notifications.md shows it standalone)."""
    if not timestamp.isdigit():
        return False
    return hmac.compare_digest(sign(secret, int(timestamp), body), signature)


def body_of(notification: Notification, style: str, site_url: str) -> bytes:
    """The JSON body for a webhook of `style`, its links under `site_url`."""
    link = f"{site_url.rstrip('/')}{notification.path}" if notification.path else ""
    payload: dict[str, Any]
    if style == Webhook.Style.DISCORD:
        payload = {
            "content": _bounded(f"**{notification.title}**", DISCORD_CONTENT_MAX),
            "embeds": [
                {
                    "title": notification.title[:256],
                    "description": _bounded(notification.text, 4096),
                    **({"url": link} if link else {}),
                }
            ],
            "allowed_mentions": {"parse": []},
        }
    elif style == Webhook.Style.SLACK:
        words = f"*{_slack_escape(notification.title)}*\n{_slack_escape(notification.text)}"
        if link:
            words += f"\n<{link}|Open on Agon>"
        payload = {
            "text": _bounded(words, SLACK_TEXT_MAX),
            "blocks": [
                {"type": "section", "text": {"type": "mrkdwn", "text": _bounded(words, 3000)}}
            ],
        }
    else:
        payload = {
            "id": notification.id,
            "kind": notification.kind,
            "created": notification.created.isoformat(),
            "title": notification.title,
            "text": notification.text,
            "url": link,
            "data": notification.data,
        }
    return json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()


def _bounded(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def _slack_escape(text: str) -> str:
    """Slack's three control characters: a bot's name cannot make a link or a mention."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
