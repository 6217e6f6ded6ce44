"""The notifications API: a user's settings (e-mail address, each kind's channels), their
webhooks (the secret shown once, the page's address check, the page's test limit), each
webhook's deliveries and the user's notifications; hostile bodies are refused whole.
Who may call each endpoint is in test_permissions.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings
from rest_framework.test import APIClient

from agon.api.common import SMALL_BODY_BYTES
from agon.notifications.addresses import webhook_url_check
from agon.notifications.kinds import CHANNELS, KINDS
from agon.notifications.models import Choice, Delivery, Notification, Webhook
from agon.notifications.services import choices_of, notify, webhook_create
from tests.platform.conftest import PASSWORD

pytestmark = pytest.mark.django_db

SETTINGS = "/api/notifications/settings/"
WEBHOOKS = "/api/notifications/webhooks/"
HOOK_URL = "https://hooks.example.org/agon"


def everything(on: bool) -> dict[str, dict[str, bool]]:
    return {kind: dict.fromkeys(CHANNELS, on) for kind in KINDS}


def told(user: User, key: str, *, on_site: bool = True) -> Notification:
    if not on_site:
        Choice.objects.update_or_create(
            user=user, kind="bot_paused", defaults={"site": False, "webhooks": True}
        )
    notification = notify(
        user_id=user.id, kind="bot_paused", key=key, title=f"paused {key}", path="/my/bots/1/"
    )
    assert notification is not None
    return notification


def refusal(response: Any) -> str:
    assert response.status_code == 400, response.content[:500]
    return str(response.json()["error"])


# --- settings ---------------------------------------------------------------------------


def test_the_settings_start_at_each_kinds_defaults(alice_client: APIClient) -> None:
    shown = alice_client.get(SETTINGS).json()

    assert shown["email"] is None
    assert list(shown["kinds"]) == list(KINDS)
    assert shown["kinds"]["competition_phase"] == {"site": True, "email": False, "webhooks": True}


def test_put_sets_the_address_and_every_kinds_channels(
    alice: User, alice_client: APIClient
) -> None:
    kinds = everything(False) | {
        "competition_result": {"site": True, "email": True, "webhooks": False}
    }

    response = alice_client.put(
        SETTINGS, {"email": "alice@example.org", "kinds": kinds}, format="json"
    )

    assert response.status_code == 200, response.content
    assert response.json() == {"email": "alice@example.org", "kinds": kinds}
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"
    assert choices_of(user=alice)["competition_result"] == {"site", "email"}
    assert choices_of(user=alice)["bot_paused"] == frozenset()
    assert alice_client.get(SETTINGS).json() == response.json()


def test_patch_changes_only_the_channels_it_names(alice: User, alice_client: APIClient) -> None:
    alice_client.put(
        SETTINGS, {"email": "alice@example.org", "kinds": everything(True)}, format="json"
    )

    response = alice_client.patch(
        SETTINGS, {"kinds": {"bot_paused": {"email": False}}}, format="json"
    )

    assert response.status_code == 200, response.content
    shown = response.json()
    assert shown["email"] == "alice@example.org", "an address not named stays"
    assert shown["kinds"]["bot_paused"] == {"site": True, "email": False, "webhooks": True}
    assert shown["kinds"] | {"bot_paused": everything(True)["bot_paused"]} == everything(True)


def test_patch_with_a_null_address_sends_no_more_mail(alice: User, alice_client: APIClient) -> None:
    alice_client.patch(SETTINGS, {"email": "alice@example.org"}, format="json")

    shown = alice_client.patch(SETTINGS, {"email": None}, format="json").json()

    alice.refresh_from_db()
    assert (shown["email"], alice.email) == (None, "")


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (
            {"kinds": {"bot_exploded": {"email": True}}},
            "kinds: no kind of notification called bot_exploded (the kinds: validation_failed,",
        ),
        (
            {"kinds": {"bot_paused": {"pigeon": True}}},
            "kinds: bot_paused: no channel called pigeon",
        ),
        ({"kinds": {"bot_paused": {"email": "yes"}}}, "kinds: bot_paused: each channel is true"),
        ({"kinds": {"bot_paused": True}}, "kinds: bot_paused: an object of channels"),
        ({"kinds": ["bot_paused"]}, "kinds: an object: each kind's channels"),
        ({"email": "not an address"}, "email: Enter a valid email address."),
        ({"email": ""}, "email: This field may not be blank."),
        ({"email": "a" * 250 + "@example.org"}, "email: Ensure this field has no more than 254"),
    ],
)
def test_a_bad_change_is_refused_saying_why_and_changes_nothing(
    alice: User, alice_client: APIClient, body: dict[str, Any], said: str
) -> None:
    before = alice_client.get(SETTINGS).json()
    # Beside the bad part, a good one: it is not saved either.
    good = {"email": "alice@example.org", "kinds": {"rating_milestone": {"email": True}}}

    response = alice_client.patch(SETTINGS, good | body, format="json")

    assert refusal(response).startswith(said)
    assert alice_client.get(SETTINGS).json() == before
    assert not Choice.objects.filter(user=alice).exists()


def test_an_error_repeats_a_few_of_the_names_sent_cut_short(alice_client: APIClient) -> None:
    names = {f"{n}{'x' * 100}": {"email": True} for n in range(8)}

    said = refusal(alice_client.patch(SETTINGS, {"kinds": names}, format="json"))

    assert said.startswith(f"kinds: no kind of notification called 0{'x' * 39}, 1{'x' * 39}, ")
    assert f"4{'x' * 39} and 3 more (the kinds: validation_failed," in said


def test_put_names_what_is_missing(alice_client: APIClient) -> None:
    kinds = everything(True)
    del kinds["rating_milestone"]
    del kinds["bot_paused"]["site"]

    said = refusal(alice_client.put(SETTINGS, {"email": None, "kinds": kinds}, format="json"))
    assert said == "kinds: every kind is needed: rating_milestone missing"

    kinds["rating_milestone"] = {"site": True, "email": True, "webhooks": True}
    said = refusal(alice_client.put(SETTINGS, {"email": None, "kinds": kinds}, format="json"))
    assert said == "kinds: bot_paused: site missing"
    said = refusal(alice_client.put(SETTINGS, {"kinds": everything(True)}, format="json"))
    assert said == "email: This field is required."


def test_a_huge_body_is_refused_before_it_is_read(alice: User, alice_client: APIClient) -> None:
    padding = "x" * (SMALL_BODY_BYTES + 1)
    body = {"email": "alice@example.org", "kinds": {"bot_paused": {"email": False}}, "pad": padding}

    for method in (alice_client.put, alice_client.patch):
        response = method(SETTINGS, body, format="json")
        assert response.status_code == 413, response.content[:300]
        assert response.json()["error"] == "the request's body is larger than 16 KiB"
    response = alice_client.post(WEBHOOKS, {"url": HOOK_URL + "?" + padding}, format="json")
    assert response.status_code == 413
    alice.refresh_from_db()
    assert alice.email == "" and not Webhook.objects.exists()


def test_a_body_that_is_not_json_is_refused(alice_client: APIClient) -> None:
    response = alice_client.patch(SETTINGS, {"email": "alice@example.org"})  # a form

    assert response.status_code == 415
    malformed = alice_client.generic("PATCH", SETTINGS, "{", content_type="application/json")
    assert malformed.status_code == 400
    assert malformed.json()["error"].startswith("JSON parse error")


# --- webhooks ---------------------------------------------------------------------------


def test_a_webhooks_secret_is_shown_when_it_is_added_and_never_again(
    alice: User, alice_client: APIClient
) -> None:
    response = alice_client.post(WEBHOOKS, {"url": HOOK_URL, "style": "discord"}, format="json")

    assert response.status_code == 201, response.content
    made = response.json()
    hook = Webhook.objects.get(user=alice)
    assert made == {
        "id": hook.id,
        "url": HOOK_URL,
        "style": "discord",
        "created": made["created"],
        "secret": hook.secret,
    }
    assert len(hook.secret) == 64
    assert "no-store" in response["Cache-Control"]
    for path in (WEBHOOKS, f"{WEBHOOKS}{hook.id}/"):
        later = alice_client.get(path)
        assert later.status_code == 200
        assert hook.secret not in later.content.decode()
    assert alice_client.get(f"{WEBHOOKS}{hook.id}/").json() == {
        key: value for key, value in made.items() if key != "secret"
    }


def test_the_style_is_generic_unless_named(alice_client: APIClient) -> None:
    made = alice_client.post(WEBHOOKS, {"url": HOOK_URL}, format="json").json()

    assert made["style"] == "generic"
    said = refusal(alice_client.post(WEBHOOKS, {"url": HOOK_URL, "style": "teams"}, format="json"))
    assert said == 'style: "teams" is not a valid choice.'


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/admin/",
        "http://10.0.0.7/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/hook",
        "http://[::ffff:192.168.1.1]/hook",
        "http://localhost/hook",
        "https://redis.internal/",
        "ftp://hooks.example.org/",
        "https://user:secret@hooks.example.org/",
        "https://hooks.example.org/a b",
        "not a url",
    ],
)
def test_a_url_the_page_refuses_is_refused_with_the_pages_words(
    alice_client: APIClient, url: str
) -> None:
    with pytest.raises(ValidationError) as page_says:
        webhook_url_check(url)

    said = refusal(alice_client.post(WEBHOOKS, {"url": url}, format="json"))

    assert said == page_says.value.messages[0]
    assert not Webhook.objects.exists()


def test_no_more_webhooks_than_allowed(alice_client: APIClient, settings: Settings) -> None:
    settings.AGON_WEBHOOKS_PER_USER = 2
    statuses = [
        alice_client.post(WEBHOOKS, {"url": f"{HOOK_URL}/{n}"}, format="json").status_code
        for n in range(3)
    ]

    assert statuses == [201, 201, 400]
    assert [hook["url"] for hook in alice_client.get(WEBHOOKS).json()] == [
        f"{HOOK_URL}/0",
        f"{HOOK_URL}/1",
    ]


def test_a_webhook_is_removed_with_its_log(alice: User, alice_client: APIClient) -> None:
    hook = webhook_create(user=alice, url=HOOK_URL, style="generic")
    told(alice, "1")

    assert alice_client.delete(f"{WEBHOOKS}{hook.id}/").status_code == 204
    assert not Webhook.objects.exists() and not Delivery.objects.exists()
    again = alice_client.delete(f"{WEBHOOKS}{hook.id}/")
    assert again.status_code == 404
    assert again.json()["error"] == f"you have no webhook {hook.id}"


def test_another_users_webhook_is_not_found_and_stays(
    alice: User, bob: User, bob_client: APIClient
) -> None:
    hook = webhook_create(user=alice, url=HOOK_URL, style="generic")
    told(alice, "1")

    assert bob_client.get(WEBHOOKS).json() == []
    for method, path in (
        ("get", f"{WEBHOOKS}{hook.id}/"),
        ("get", f"{WEBHOOKS}{hook.id}/deliveries/"),
        ("post", f"{WEBHOOKS}{hook.id}/test/"),
        ("delete", f"{WEBHOOKS}{hook.id}/"),
    ):
        response = getattr(bob_client, method)(path)
        assert response.status_code == 404, (method, path)
        assert hook.secret not in response.content.decode()
    assert Webhook.objects.filter(id=hook.id).exists()
    assert Delivery.objects.count() == 1, "no test was sent to it"


def test_a_test_goes_to_that_webhook_alone_once_the_request_commits(
    alice: User,
    alice_client: APIClient,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    hook = webhook_create(user=alice, url=HOOK_URL, style="generic")
    webhook_create(user=alice, url=f"{HOOK_URL}/other", style="slack")

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = alice_client.post(f"{WEBHOOKS}{hook.id}/test/")

    assert response.status_code == 202, response.content
    (delivery,) = Delivery.objects.all()
    assert (delivery.webhook_id, delivery.status, delivery.notification.kind) == (
        hook.id,
        "pending",
        "test",
    )
    assert response.json()["id"] == delivery.id and response.json()["kind"] == "test"
    assert len(callbacks) == 1, "handed to the queue after the commit, not sent in the request"
    assert alice_client.get("/api/notifications/").json()["count"] == 0, "not shown on the site"


def test_tests_are_limited_with_the_pages(
    alice: User, alice_client: APIClient, client: Client, settings: Settings
) -> None:
    settings.AGON_RATE_LIMITS = {**settings.AGON_RATE_LIMITS, "webhook-test": "3/hour"}
    hook = webhook_create(user=alice, url=HOOK_URL, style="generic")
    client.login(username="alice", password=PASSWORD)
    assert client.post(f"/my/notifications/webhooks/{hook.id}/test/").status_code == 302

    statuses = [alice_client.post(f"{WEBHOOKS}{hook.id}/test/").status_code for _ in range(3)]

    assert statuses == [202, 202, 429]
    refused = alice_client.post(f"{WEBHOOKS}{hook.id}/test/")
    assert int(refused["Retry-After"]) > 0
    assert refused.json()["error"].startswith("too many")
    assert Delivery.objects.count() == 3


def test_a_webhooks_deliveries_are_paged_newest_first(alice: User, alice_client: APIClient) -> None:
    hook = webhook_create(user=alice, url=HOOK_URL, style="generic")
    for number in range(3):
        told(alice, str(number))
    other = webhook_create(user=alice, url=f"{HOOK_URL}/other", style="generic")
    told(alice, "3")  # to both
    Delivery.objects.filter(webhook=hook).update(status="failed", attempts=8, error="HTTP 500")

    first = alice_client.get(f"{WEBHOOKS}{hook.id}/deliveries/?page_size=3").json()
    second = alice_client.get(first["next"]).json()

    assert first["count"] == 4
    titles = [row["title"] for row in first["results"] + second["results"]]
    assert titles == ["paused 3", "paused 2", "paused 1", "paused 0"]
    row = first["results"][0]
    assert (row["kind"], row["status"], row["attempts"], row["error"]) == (
        "bot_paused",
        "failed",
        8,
        "HTTP 500",
    )
    assert alice_client.get(f"{WEBHOOKS}{other.id}/deliveries/").json()["count"] == 1


# --- notifications ----------------------------------------------------------------------


def test_the_notifications_are_the_users_own_shown_on_the_site_newest_first(
    alice: User, bob: User, alice_client: APIClient
) -> None:
    for number in range(3):
        told(alice, str(number))
    told(bob, "bob's")
    told(alice, "hidden", on_site=False)

    page = alice_client.get("/api/notifications/?page_size=2").json()

    assert page["count"] == 3
    assert [row["title"] for row in page["results"]] == ["paused 2", "paused 1"]
    row = page["results"][0]
    assert row["kind"] == "bot_paused"
    assert row["url"] == "http://testserver/my/bots/1/"
    assert alice_client.get(page["next"]).json()["results"][0]["title"] == "paused 0"
