"""A user's notifications page and their notification settings (choices, e-mail
address, webhooks and the deliveries' log)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import capfirst
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from agon.notifications.kinds import CHANNELS
from agon.notifications.selectors import (
    notifications_recent,
    webhook_log,
    webhook_of,
    webhooks_of,
)
from agon.notifications.services import (
    choices_of,
    choices_set,
    email_set,
    webhook_create,
    webhook_test_send,
)
from agon.notifications.services import webhook_delete as webhook_remove
from agon.rate_limits.services import RateLimited, limit_take
from agon.web.forms import sentences
from agon.web.notification_forms import CHANNEL_HEADINGS, NotificationChoicesForm, WebhookForm
from agon.web.views.common import signed_in


@login_required
def notification_list(request: HttpRequest) -> HttpResponse:
    user = signed_in(request)
    return render(
        request, "web/notifications.html", {"notifications": notifications_recent(user=user)}
    )


def _settings_page(
    request: HttpRequest,
    choices_form: NotificationChoicesForm | None = None,
    webhook_form: WebhookForm | None = None,
    status: int = 200,
    refusal: str = "",
) -> HttpResponse:
    user = signed_in(request)
    choices_form = choices_form or NotificationChoicesForm(
        initial={"email": user.email}, choices=choices_of(user=user)
    )
    return render(
        request,
        "web/notification_settings.html",
        {
            "form": choices_form,
            "channels": [CHANNEL_HEADINGS[channel] for channel in CHANNELS],
            "webhook_form": webhook_form or WebhookForm(),
            "webhooks": webhooks_of(user=user),
            "deliveries": webhook_log(user=user),
            "refusal": refusal,
        },
        status=status,
    )


@never_cache  # it shows the webhooks' secrets
@login_required
def notification_settings(request: HttpRequest) -> HttpResponse:
    user = signed_in(request)
    if request.method != "POST":
        return _settings_page(request)
    form = NotificationChoicesForm(request.POST, choices=choices_of(user=user))
    if not form.is_valid():
        return _settings_page(request, choices_form=form, status=400)
    email_set(user=user, email=form.cleaned_data["email"])
    choices_set(user=user, choices=form.chosen())
    messages.success(request, "Your notification choices are saved.")
    return redirect("web:notification-settings")


@never_cache
@login_required
@require_POST
def webhook_add(request: HttpRequest) -> HttpResponse:
    user = signed_in(request)
    form = WebhookForm(request.POST)
    if form.is_valid():
        try:
            webhook_create(
                user=user, url=form.cleaned_data["url"], style=form.cleaned_data["style"]
            )
        except ValidationError as refused:
            for message in sentences(refused):
                form.add_error("url", message)
    if not form.is_valid():
        return _settings_page(request, webhook_form=form, status=400)
    messages.success(request, "The webhook is added: its secret is below.")
    return redirect("web:notification-settings")


@login_required
@require_POST
def webhook_delete(request: HttpRequest, webhook_id: int) -> HttpResponse:
    user = signed_in(request)
    if webhook_remove(user=user, webhook_id=webhook_id):
        messages.success(request, "The webhook is removed.")
    return redirect("web:notification-settings")


@never_cache
@login_required
@require_POST
def webhook_test(request: HttpRequest, webhook_id: int) -> HttpResponse:
    """Send a test notification to one of the user's webhooks (rate limited: each is a
    POST to a URL of the user's)."""
    user = signed_in(request)
    if webhook_of(user=user, webhook_id=webhook_id) is None:
        raise Http404(f"you have no webhook {webhook_id}")
    try:
        limit_take(limits=[("webhook-test", f"user:{user.id}")])
    except RateLimited as limited:
        response = _settings_page(request, refusal=f"{capfirst(limited.message)}.", status=429)
        response["Retry-After"] = str(limited.retry_after)
        return response
    webhook_test_send(user=user, webhook_id=webhook_id)
    messages.success(request, "A test notification is on its way: see the deliveries below.")
    return redirect("web:notification-settings")
