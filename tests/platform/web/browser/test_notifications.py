"""A user in the browser reads their notifications, chooses where each kind goes, gives
an e-mail address and adds a webhook, and sees the deliveries' log; at 1366x900 and on a
phone, nothing wider than the screen (screenshots notifications/*.png)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from agon.notifications.kinds import EMAIL
from agon.notifications.models import Delivery
from agon.notifications.services import choices_of, notify, webhook_create
from tests.platform.web.browser.conftest import Site, looked_at, signed_in_page


def some_news(alice: User) -> None:
    hook = webhook_create(
        user=alice,
        url="https://discord.com/api/webhooks/1234567890/a-rather-long-token-of-discords",
        style="discord",
    )
    told = [
        (
            "validation_failed",
            "hero v3 failed its validation",
            "Rejected: it crashed (exit code 1, ZeroDivisionError) on turn 4.",
        ),
        (
            "version_test_verdict",
            "Version test of hero v2: H1 accepted",
            "Against alice/hero@v1: H1 accepted: the candidate is stronger by elo1, after 18 "
            "games (16 wins, 1 draws, 1 losses).",
        ),
        (
            "tournament_result",
            "the spring cup has finished",
            "alice/hero@v2 placed 1 of 8, alice/a-bot-with-a-rather-long-name@v1 placed 5 of 8.",
        ),
    ]
    for number, (kind, title, text) in enumerate(told):
        notify(
            user_id=alice.id,
            kind=kind,
            key=str(number),
            title=title,
            text=text,
            path="/tournaments/",
        )
    deliveries = list(Delivery.objects.filter(webhook=hook).order_by("id"))
    Delivery.objects.filter(id=deliveries[0].id).update(
        status="delivered", attempts=1, response_status=204, finished=timezone.now()
    )
    Delivery.objects.filter(id=deliveries[1].id).update(
        status="failed", attempts=8, response_status=404, error="HTTP 404"
    )
    Delivery.objects.filter(id=deliveries[2].id).update(
        attempts=2, response_status=503, error="HTTP 503"
    )


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_read_notifications_choose_where_they_go_and_add_a_webhook(
    site: Site, alice: User, viewport: str
) -> None:
    some_news(alice)
    page = signed_in_page(site, viewport)
    page.get_by_role("link", name="Notifications").click()
    expect(page.get_by_role("heading", name="Notifications", exact=True)).to_be_visible()
    titles = page.locator(".notification-title")
    expect(titles).to_have_text(
        [
            "the spring cup has finished",
            "Version test of hero v2: H1 accepted",
            "hero v3 failed its validation",
        ]
    )
    looked_at(site, page, "notifications/01-list", viewport)

    page.get_by_role("link", name="Choose what you are told, and where").click()
    expect(page.get_by_role("heading", name="Notification settings")).to_be_visible()
    page.get_by_label("E-mail address").fill("alice@example.org")
    page.get_by_label("By e-mail: A version test ended (its verdict)").check()
    page.get_by_label("To my webhooks: A bot's rating reached a new hundred on a ladder").uncheck()
    page.get_by_role("button", name="Save my choices").click()
    expect(page.get_by_text("Your notification choices are saved.")).to_be_visible()
    choices = choices_of(user=alice)
    assert EMAIL in choices["version_test_verdict"]
    assert choices["rating_milestone"] == {"site"}
    expect(page.get_by_label("By e-mail: A version test ended (its verdict)")).to_be_checked()

    page.get_by_label("Webhook URL").fill("http://169.254.169.254/latest/meta-data/")
    page.get_by_role("button", name="Add the webhook").click()
    expect(page.get_by_text("169.254.169.254 is not a public address.")).to_be_visible()
    # Chromium logs the refusal's status (400) as a console error: expected here.
    site.problems.found = [
        problem
        for problem in site.problems.found
        if not ("status of 400" in problem and problem.endswith("/my/notifications/webhooks/)"))
    ]
    page.get_by_label("Webhook URL").fill("https://hooks.slack.com/services/T000/B000/XXXX")
    page.get_by_label("Payload").select_option("slack")
    page.get_by_role("button", name="Add the webhook").click()
    expect(page.get_by_text("The webhook is added: its secret is below.")).to_be_visible()
    expect(page.locator(".webhook-url")).to_have_count(2)
    page.get_by_role("button", name="Send a test").last.click()
    expect(page.get_by_text("A test notification is on its way")).to_be_visible()
    expect(page.locator(".deliveries tbody tr")).to_have_count(4)
    expect(page.locator(".deliveries tbody tr").first).to_contain_text("hooks.slack.com")
    looked_at(site, page, "notifications/02-settings", viewport)
