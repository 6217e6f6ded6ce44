"""What each style of webhook receives: the generic JSON, and the shapes Discord's and
Slack's incoming webhooks take, with a bot's name unable to mention or link anyone."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User

from agon.notifications.addresses import target_of
from agon.notifications.models import Notification, Webhook
from agon.notifications.outbound import _with_host
from agon.notifications.payloads import body_of, sign, verify
from agon.notifications.services import notify

pytestmark = pytest.mark.django_db


@pytest.fixture
def notification(alice: User) -> Notification:
    made = notify(
        user_id=alice.id,
        kind="tournament_result",
        key="1",
        title="the <!channel> cup has finished",
        text="alice/@everyone@v1 placed 1 of 4 & won",
        path="/tournaments/1/",
        data={"places": [{"rank": 1}]},
    )
    assert made is not None
    return made


def test_discord_gets_content_and_an_embed_and_no_mentions(notification: Notification) -> None:
    payload = json.loads(body_of(notification, Webhook.Style.DISCORD, "https://agon.example/"))
    assert payload == {
        "content": "**the <!channel> cup has finished**",
        "embeds": [
            {
                "title": "the <!channel> cup has finished",
                "description": "alice/@everyone@v1 placed 1 of 4 & won",
                "url": "https://agon.example/tournaments/1/",
            }
        ],
        "allowed_mentions": {"parse": []},
    }


def test_slack_gets_text_and_blocks_with_its_control_characters_escaped(
    notification: Notification,
) -> None:
    payload = json.loads(body_of(notification, Webhook.Style.SLACK, "https://agon.example"))
    text = (
        "*the &lt;!channel&gt; cup has finished*\nalice/@everyone@v1 placed 1 of 4 &amp; won"
        "\n<https://agon.example/tournaments/1/|Open on Agon>"
    )
    assert payload == {
        "text": text,
        "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": text}}],
    }


def test_the_generic_body_is_the_notification_and_its_facts(notification: Notification) -> None:
    payload = json.loads(body_of(notification, Webhook.Style.GENERIC, "https://agon.example"))
    assert payload["kind"] == "tournament_result"
    assert payload["data"] == {"places": [{"rank": 1}]}
    assert payload["url"] == "https://agon.example/tournaments/1/"


def test_a_signature_covers_the_timestamp_and_the_exact_body() -> None:
    signature = sign("s3cret", 1700000000, b'{"a":1}')
    assert signature.startswith("v1=") and len(signature) == 3 + 64
    assert verify("s3cret", "1700000000", b'{"a":1}', signature)
    assert not verify("s3cret", "1700000001", b'{"a":1}', signature)
    assert not verify("s3cret", "1700000000", b'{"a": 1}', signature)
    assert not verify("s3cret", "soon", b'{"a":1}', signature)


def test_the_host_header_names_the_port_only_when_it_is_not_the_schemes() -> None:
    assert _with_host(target_of("https://example.org/h"), {})["Host"] == "example.org"
    assert _with_host(target_of("http://example.org:8080/h"), {})["Host"] == "example.org:8080"
    assert _with_host(target_of("https://[2606:4700::1]:8443/h"), {})["Host"] == (
        "[2606:4700::1]:8443"
    )
