"""The notification settings' forms: the e-mail address and each kind's channels, and a
new webhook."""

from __future__ import annotations

from typing import Any

from django import forms

from agon.notifications.kinds import CHANNELS, KINDS
from agon.notifications.models import URL_MAX, Webhook

CHANNEL_WORDS = {"site": "On this site", "email": "By e-mail", "webhooks": "To my webhooks"}
"""Each channel as a checkbox's label says it."""
CHANNEL_HEADINGS = {"site": "Site", "email": "E-mail", "webhooks": "Webhooks"}
"""Each channel as the table's head says it (short: a phone's width)."""


def field_name(kind: str, channel: str) -> str:
    return f"{kind}__{channel}"


class NotificationChoicesForm(forms.Form):
    email = forms.EmailField(
        label="E-mail address",
        required=False,
        max_length=254,
        help_text="Where e-mail notifications go; leave it empty for none.",
    )

    def __init__(
        self, *args: Any, choices: dict[str, frozenset[str]] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        for kind in KINDS.values():
            for channel in CHANNELS:
                self.fields[field_name(kind.name, channel)] = forms.BooleanField(
                    label=f"{CHANNEL_WORDS[channel]}: {kind.label}",
                    required=False,
                    initial=choices is not None and channel in choices.get(kind.name, ()),
                )

    def chosen(self) -> dict[str, list[str]]:
        """Each kind's channels ticked (after is_valid)."""
        return {
            kind: [c for c in CHANNELS if self.cleaned_data.get(field_name(kind, c))]
            for kind in KINDS
        }

    def rows(self) -> list[tuple[str, list[forms.BoundField]]]:
        """Each kind's label and its channels' checkboxes, for the table."""
        return [
            (kind.label, [self[field_name(kind.name, channel)] for channel in CHANNELS])
            for kind in KINDS.values()
        ]


class WebhookForm(forms.Form):
    url = forms.CharField(
        label="Webhook URL",
        max_length=URL_MAX,
        help_text="An https:// address on the public Internet (a Discord or Slack webhook, "
        "or your own receiver).",
    )
    style = forms.ChoiceField(label="Payload", choices=Webhook.Style.choices)
