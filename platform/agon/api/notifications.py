"""A user's notifications, their choices and their webhooks: what the site's
/my/notifications/ pages do, for scripts (the signed-in user's own; another user's
webhook is not found).

GET           /api/notifications/                               the last ones (paged)
GET|PUT|PATCH /api/notifications/settings/                      e-mail address, channels per kind
GET|POST      /api/notifications/webhooks/                      the webhooks; add one
GET|DELETE    /api/notifications/webhooks/{id}/                 one; remove it
POST          /api/notifications/webhooks/{id}/test/            send it a test notification
GET           /api/notifications/webhooks/{id}/deliveries/      its deliveries (paged)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import User
from django.utils.cache import add_never_cache_headers
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from agon.api.common import SmallJSONParser, error_responses, signed_in_user
from agon.api.pagination import PageNumberPagination, paginate
from agon.api.throttles import take_or_refuse
from agon.notifications.kinds import CHANNELS, KINDS
from agon.notifications.models import URL_MAX, Delivery, Notification, Webhook
from agon.notifications.selectors import (
    notifications_shown,
    webhook_deliveries,
    webhook_of,
    webhooks_of,
)
from agon.notifications.services import (
    choices_of,
    notification_settings_update,
    webhook_create,
    webhook_delete,
    webhook_test_send,
)

Switches = dict[str, dict[str, bool]]
"""Channels turned on or off, by kind: `{"bot_paused": {"email": True}}`."""


def _kinds_schema(*, whole: bool) -> dict[str, Any]:
    """Every kind a property, each with its channels' switches: all of them (`whole`)
    or any (a change); a kind or channel of another name is refused."""
    channels: dict[str, Any] = {
        "type": "object",
        "properties": {channel: {"type": "boolean"} for channel in CHANNELS},
        "additionalProperties": False,
    }
    if whole:
        channels["required"] = list(CHANNELS)
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            kind.name: {**channels, "description": kind.label} for kind in KINDS.values()
        },
        "additionalProperties": False,
    }
    if whole:
        schema["required"] = list(KINDS)
    return schema


def _names(names: Iterable[str]) -> str:
    """Names a client sent, as an error repeats them: a few, each cut short."""
    some = sorted(names)
    shown = ", ".join(name[:40] for name in some[:5])
    return shown + (f" and {len(some) - 5} more" if len(some) > 5 else "")


class _KindsField(serializers.Field[Any, Any, Switches, Any]):
    """Each kind's channels, switched on or off: read as `{kind: {channel: bool}}`, shown
    from `choices_of`'s sets."""

    whole = True

    def to_representation(self, value: Mapping[str, frozenset[str]]) -> Switches:
        return {kind: {c: c in channels for c in CHANNELS} for kind, channels in value.items()}

    def to_internal_value(self, data: Any) -> Switches:
        if not isinstance(data, dict):
            raise serializers.ValidationError("an object: each kind's channels")
        unknown = _names(kind for kind in data if kind not in KINDS)
        if unknown:
            raise serializers.ValidationError(
                f"no kind of notification called {unknown} (the kinds: {', '.join(KINDS)})"
            )
        missing = [kind for kind in KINDS if kind not in data]
        if self.whole and missing:
            raise serializers.ValidationError(f"every kind is needed: {', '.join(missing)} missing")
        return {kind: self._switches(kind, switches) for kind, switches in data.items()}

    def _switches(self, kind: str, switches: Any) -> dict[str, bool]:
        if not isinstance(switches, dict):
            raise serializers.ValidationError(f"{kind}: an object of channels, true or false")
        unknown = _names(channel for channel in switches if channel not in CHANNELS)
        if unknown:
            raise serializers.ValidationError(
                f"{kind}: no channel called {unknown} (the channels: {', '.join(CHANNELS)})"
            )
        missing = [channel for channel in CHANNELS if channel not in switches]
        if self.whole and missing:
            raise serializers.ValidationError(f"{kind}: {', '.join(missing)} missing")
        if not all(isinstance(on, bool) for on in switches.values()):
            raise serializers.ValidationError(f"{kind}: each channel is true or false")
        return dict(switches)


@extend_schema_field(_kinds_schema(whole=True))
class WholeKindsField(_KindsField):
    whole = True


@extend_schema_field(_kinds_schema(whole=False))
class SomeKindsField(_KindsField):
    whole = False


EMAIL_HELP = (
    "Where e-mail notifications go; null for none (e-mail is then sent to nobody, "
    "whatever the kinds say)."
)
KINDS_HELP = (
    "Each kind of event and where it is told: on the site (`site`, GET "
    "/api/notifications/), by e-mail (`email`), to every webhook (`webhooks`)."
)


class NotificationSettingsSerializer(serializers.Serializer[Any]):
    email = serializers.EmailField(max_length=254, allow_null=True, help_text=EMAIL_HELP)
    kinds = WholeKindsField(help_text=KINDS_HELP)


class NotificationSettingsChangeSerializer(serializers.Serializer[Any]):
    email = serializers.EmailField(
        max_length=254, allow_null=True, required=False, help_text=EMAIL_HELP
    )
    kinds = SomeKindsField(
        required=False, help_text=f"{KINDS_HELP} Kinds and channels not named keep theirs."
    )


class NotificationSerializer(serializers.ModelSerializer[Notification]):
    url = serializers.SerializerMethodField(help_text="The site's page about it, if any.")

    class Meta:
        model = Notification
        fields: tuple[str, ...] = ("id", "kind", "title", "text", "url", "data", "created")
        read_only_fields = fields
        extra_kwargs = {  # noqa: RUF012 - DRF's own attribute
            "data": {"help_text": "The event's facts (ids, names, numbers): a webhook's `data`."}
        }

    @extend_schema_field(serializers.CharField())
    def get_url(self, notification: Notification) -> str:
        if not notification.path:
            return ""
        return self.context["request"].build_absolute_uri(notification.path)  # type: ignore[no-any-return]


class WebhookSerializer(serializers.ModelSerializer[Webhook]):
    class Meta:
        model = Webhook
        fields: tuple[str, ...] = ("id", "url", "style", "created")
        read_only_fields = fields


class WebhookCreatedSerializer(WebhookSerializer):
    secret = serializers.CharField(
        read_only=True,
        help_text="The key of the webhook's signatures (X-Agon-Signature), shown here "
        "only: keep it now.",
    )

    class Meta(WebhookSerializer.Meta):
        fields = (*WebhookSerializer.Meta.fields, "secret")
        read_only_fields = fields


class WebhookCreateSerializer(serializers.Serializer[Any]):
    url = serializers.CharField(
        max_length=URL_MAX,
        help_text="A public http(s) address: loopback, private, link-local and local "
        "names are refused (docs/threat-model.md).",
    )
    style = serializers.ChoiceField(  # type: ignore[assignment]  # a field, not Field.style
        choices=Webhook.Style.choices,
        default=Webhook.Style.GENERIC,
        help_text="The payload: `generic` (signed JSON), `discord` or `slack`.",
    )


class DeliverySerializer(serializers.ModelSerializer[Delivery]):
    notification = serializers.IntegerField(source="notification_id", read_only=True)
    kind = serializers.CharField(source="notification.kind", read_only=True)
    title = serializers.CharField(source="notification.title", read_only=True)

    class Meta:
        model = Delivery
        fields: tuple[str, ...] = (
            "id",
            "notification",
            "kind",
            "title",
            "status",
            "attempts",
            "next_attempt",
            "response_status",
            "error",
            "created",
            "finished",
        )
        read_only_fields = fields
        extra_kwargs = {  # noqa: RUF012 - DRF's own attribute
            "next_attempt": {"help_text": "When it is tried next, while pending."},
            "response_status": {"help_text": "The receiver's last HTTP status."},
            "error": {"help_text": "Why the last try failed."},
        }


def _own_webhook(user: User, webhook_id: int) -> Webhook:
    webhook = webhook_of(user=user, webhook_id=webhook_id)
    if webhook is None:
        raise exceptions.NotFound(f"you have no webhook {webhook_id}")
    return webhook


def _settings_json(user: User) -> dict[str, Any]:
    return NotificationSettingsSerializer(
        {"email": user.email or None, "kinds": choices_of(user=user)}
    ).data


class NotificationListView(APIView):
    permission_classes = (IsAuthenticated,)
    pagination_class = PageNumberPagination

    @extend_schema(
        responses={200: NotificationSerializer(many=True), **error_responses(401)},
        summary="Your notifications",
        description="Newest first: those of the kinds you have told on the site "
        "(`site` in the settings), as /my/notifications/ shows them.",
    )
    def get(self, request: Request) -> Response:
        user = signed_in_user(request)
        paginator, page = paginate(self, notifications_shown(user=user))
        shown = NotificationSerializer(page, many=True, context={"request": request})
        return paginator.get_paginated_response(shown.data)


class NotificationSettingsView(APIView):
    permission_classes = (IsAuthenticated,)
    parser_classes = (SmallJSONParser,)

    @extend_schema(
        responses={200: NotificationSettingsSerializer, **error_responses(401)},
        summary="Where you are told of each kind of event",
        description="Until you choose, every kind goes to the site and to your webhooks; "
        "e-mail is off.",
    )
    def get(self, request: Request) -> Response:
        return Response(_settings_json(signed_in_user(request)))

    @extend_schema(
        request=NotificationSettingsSerializer,
        responses={200: NotificationSettingsSerializer, **error_responses(400, 401, 413)},
        summary="Set your e-mail address and every kind's channels",
        description="The whole settings: every kind with its three channels (400 naming "
        "what is missing or unknown).",
    )
    def put(self, request: Request) -> Response:
        return self._change(request, NotificationSettingsSerializer(data=request.data))

    @extend_schema(
        request=NotificationSettingsChangeSerializer,
        responses={200: NotificationSettingsSerializer, **error_responses(400, 401, 413)},
        summary="Change some of your notification settings",
        description='`{"kinds": {"bot_paused": {"email": true}}}` turns one channel on; '
        "what is not named keeps its value.",
    )
    def patch(self, request: Request) -> Response:
        return self._change(request, NotificationSettingsChangeSerializer(data=request.data))

    def _change(self, request: Request, given: serializers.Serializer[Any]) -> Response:
        user = signed_in_user(request)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        notification_settings_update(
            user=user,
            changes=data.get("kinds", {}),
            email=(data["email"] or "") if "email" in data else None,  # null: no address
        )
        return Response(_settings_json(user))


class WebhookListView(APIView):
    permission_classes = (IsAuthenticated,)
    parser_classes = (SmallJSONParser,)

    @extend_schema(
        responses={200: WebhookSerializer(many=True), **error_responses(401)},
        summary="Your webhooks",
        description="At most AGON_WEBHOOKS_PER_USER (5), oldest first; their secrets are "
        "shown once, when each is added.",
    )
    def get(self, request: Request) -> Response:
        webhooks = webhooks_of(user=signed_in_user(request))
        return Response(WebhookSerializer(webhooks, many=True).data)

    @extend_schema(
        request=WebhookCreateSerializer,
        responses={201: WebhookCreatedSerializer, **error_responses(400, 401, 413)},
        summary="Add a webhook",
        description="Its `secret` signs every delivery (HMAC-SHA256, docs/notifications.md) "
        "and is in this answer only: to change it, remove the webhook and add it again. "
        "400 for a URL that is not a public http(s) address, or past the number allowed.",
    )
    def post(self, request: Request) -> Response:
        given = WebhookCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        webhook = webhook_create(user=signed_in_user(request), **given.validated_data)
        response = Response(WebhookCreatedSerializer(webhook).data, status=status.HTTP_201_CREATED)
        add_never_cache_headers(response)  # it holds the secret
        return response


class WebhookDetailView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        responses={200: WebhookSerializer, **error_responses(401)},
        summary="One of your webhooks",
    )
    def get(self, request: Request, webhook_id: int) -> Response:
        webhook = _own_webhook(signed_in_user(request), webhook_id)
        return Response(WebhookSerializer(webhook).data)

    @extend_schema(
        request=None,
        responses={204: None, **error_responses(401)},
        summary="Remove one of your webhooks",
        description="With its deliveries' log; deliveries still pending are not sent.",
    )
    def delete(self, request: Request, webhook_id: int) -> Response:
        if not webhook_delete(user=signed_in_user(request), webhook_id=webhook_id):
            raise exceptions.NotFound(f"you have no webhook {webhook_id}")
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookTestView(APIView):
    permission_classes = (IsAuthenticated,)

    @extend_schema(
        request=None,
        responses={202: DeliverySerializer, **error_responses(401, 429)},
        summary="Send a test notification to one of your webhooks",
        description="Kind `test`, to this webhook alone, from the queue as any other "
        "(follow it in .../deliveries/). At most AGON_WEBHOOK_TEST_RATE (10 an hour), "
        "counted with the settings page's.",
    )
    def post(self, request: Request, webhook_id: int) -> Response:
        user = signed_in_user(request)
        webhook = _own_webhook(user, webhook_id)  # 404 first: only one's own are counted
        take_or_refuse([("webhook-test", f"user:{user.id}")])  # the settings page's limit
        delivery = webhook_test_send(user=user, webhook_id=webhook.id)
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)


class WebhookDeliveriesView(APIView):
    permission_classes = (IsAuthenticated,)
    pagination_class = PageNumberPagination

    @extend_schema(
        responses={200: DeliverySerializer(many=True), **error_responses(401)},
        summary="The deliveries to one of your webhooks",
        description="Newest first: each notification sent to it, its tries and the "
        "receiver's last answer.",
    )
    def get(self, request: Request, webhook_id: int) -> Response:
        webhook = _own_webhook(signed_in_user(request), webhook_id)
        paginator, page = paginate(self, webhook_deliveries(webhook=webhook))
        return paginator.get_paginated_response(DeliverySerializer(page, many=True).data)
