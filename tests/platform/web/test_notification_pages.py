"""The notifications page and the notification settings: signed-in users only, each
sees and changes their own alone; webhook URLs are checked; secrets are never cached."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django import Settings

from agon.notifications.models import Choice, Delivery, Notification, Webhook
from agon.notifications.services import choices_of, notify, webhook_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/my/notifications/"),
        ("get", "/my/notifications/settings/"),
        ("post", "/my/notifications/settings/"),
        ("post", "/my/notifications/webhooks/"),
        ("post", "/my/notifications/webhooks/1/delete/"),
        ("post", "/my/notifications/webhooks/1/test/"),
    ],
)
def test_it_asks_to_sign_in_first(client: Client, method: str, path: str) -> None:
    response = getattr(client, method)(path)
    assert response.status_code == 302 and "/signin/" in response["Location"]


def test_the_page_shows_the_users_own_notifications_newest_first_escaped(
    alice: User, bob: User, alice_browser: Client
) -> None:
    for number in (1, 2):
        notify(
            user_id=alice.id,
            kind="validation_failed",
            key=str(number),
            title=f"<b>hero</b> v{number} failed its validation",
            path="/my/bots/1/",
        )
    notify(user_id=bob.id, kind="validation_failed", key="1", title="bob's news")
    page = alice_browser.get("/my/notifications/").content.decode()
    assert page.index("v2 failed") < page.index("v1 failed")
    assert "&lt;b&gt;hero&lt;/b&gt;" in page and "<b>hero</b>" not in page
    assert "bob&#x27;s news" not in page and "bob's news" not in page


def test_the_choices_and_the_address_are_saved(alice: User, alice_browser: Client) -> None:
    form = {"email": "alice@example.org", "validation_failed__email": "on"}
    response = alice_browser.post("/my/notifications/settings/", form)
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"
    choices = choices_of(user=alice)
    assert choices["validation_failed"] == {"email"}
    assert choices["bot_paused"] == frozenset(), "every kind is saved as the form shows it"
    assert Choice.objects.filter(user=alice).count() == len(choices)
    page = alice_browser.get("/my/notifications/settings/").content.decode()
    assert 'name="validation_failed__email" id="id_validation_failed__email" checked' in page


def test_a_bad_address_is_refused(alice: User, alice_browser: Client) -> None:
    response = alice_browser.post("/my/notifications/settings/", {"email": "not an address"})
    assert response.status_code == 400
    assert "Enter a valid email address." in response.content.decode()


def test_a_webhook_is_added_with_a_secret_shown_to_its_owner_only(
    alice: User, bob: User, alice_browser: Client
) -> None:
    url = "https://hooks.example.org/agon"
    response = alice_browser.post("/my/notifications/webhooks/", {"url": url, "style": "discord"})
    assert response.status_code == 302
    hook = Webhook.objects.get(user=alice)
    assert (hook.url, hook.style, len(hook.secret)) == (url, "discord", 64)
    page = alice_browser.get("/my/notifications/settings/")
    assert hook.secret in page.content.decode()
    assert "no-store" in page["Cache-Control"] or "max-age=0" in page["Cache-Control"]
    bobs = Client()
    bobs.force_login(bob)
    assert hook.secret not in bobs.get("/my/notifications/settings/").content.decode()
    bobs.post(f"/my/notifications/webhooks/{hook.id}/delete/")
    assert Webhook.objects.filter(id=hook.id).exists(), "bob cannot remove alice's webhook"
    alice_browser.post(f"/my/notifications/webhooks/{hook.id}/delete/")
    assert not Webhook.objects.filter(id=hook.id).exists()


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is not a public address."),
        ("ftp://example.org/", "Only http:// and https:// URLs are allowed."),
    ],
)
def test_a_webhook_url_that_is_not_public_http_is_refused(
    alice: User, alice_browser: Client, url: str, why: str
) -> None:
    response = alice_browser.post("/my/notifications/webhooks/", {"url": url, "style": "generic"})
    assert response.status_code == 400
    assert why in response.content.decode()
    assert not Webhook.objects.filter(user=alice).exists()


def test_at_most_five_webhooks(alice: User, alice_browser: Client) -> None:
    for number in range(5):
        webhook_create(user=alice, url=f"https://hooks.example.org/{number}", style="slack")
    form = {"url": "https://hooks.example.org/6", "style": "slack"}
    response = alice_browser.post("/my/notifications/webhooks/", form)
    assert response.status_code == 400
    assert "You have 5 webhooks already" in response.content.decode()


def test_the_delivery_log_shows_the_users_deliveries(alice: User, alice_browser: Client) -> None:
    webhook_create(user=alice, url="https://hooks.example.org/a", style="generic")
    notification = notify(user_id=alice.id, kind="bot_paused", key="1", title="crashy is paused")
    assert isinstance(notification, Notification)
    page = alice_browser.get("/my/notifications/settings/").content.decode()
    assert "crashy is paused" in page and "https://hooks.example.org/a" in page
    assert "pending" in page


def test_the_notifications_doc_is_served_with_its_verification_snippet(client: Client) -> None:
    page = client.get("/docs/notifications/").content.decode()
    assert "<h1" in page and "Verifying a webhook" in page
    assert "hmac.compare_digest" in page


def test_a_test_goes_to_that_webhook_alone_within_the_rate_limit(
    alice: User, bob: User, alice_browser: Client, settings: Settings
) -> None:
    settings.AGON_RATE_LIMITS = {**settings.AGON_RATE_LIMITS, "webhook-test": "2/hour"}
    tried = webhook_create(user=alice, url="https://hooks.example.org/a", style="generic")
    webhook_create(user=alice, url="https://hooks.example.org/b", style="generic")
    bobs = webhook_create(user=bob, url="https://hooks.example.org/bob", style="generic")
    assert alice_browser.post(f"/my/notifications/webhooks/{bobs.id}/test/").status_code == 404
    for _ in range(2):
        response = alice_browser.post(f"/my/notifications/webhooks/{tried.id}/test/")
        assert response.status_code == 302
    assert [d.webhook_id for d in Delivery.objects.all()] == [tried.id, tried.id]
    tests = Notification.objects.filter(deliveries__webhook=tried).distinct()
    assert [notification.on_site for notification in tests] == [False, False]
    refused = alice_browser.post(f"/my/notifications/webhooks/{tried.id}/test/")
    assert refused.status_code == 429 and "Retry-After" in refused
    assert "Too many webhook tests: try again in" in refused.content.decode()
    assert Delivery.objects.count() == 2
    assert "A test notification" not in alice_browser.get("/my/notifications/").content.decode()
