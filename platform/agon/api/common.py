"""What the API modules share: the signed-in user, error schemas, owner checks, file
responses, the early size check of uploads and small JSON bodies."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import IO, Any

from django.contrib.auth.models import User
from rest_framework import exceptions, serializers
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.parsers import BaseParser, JSONParser
from rest_framework.permissions import BasePermission
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from agon.listings import api_datetime as api_datetime  # where the API writes a time
from agon.sandboxing import MAX_PACKED_BYTES

MULTIPART_OVERHEAD = 64 * 1024
"""Room for the form's other fields and boundaries around an upload's bytes."""


class ErrorSerializer(serializers.Serializer[Any]):
    """The shape of every error: a sentence, and DRF's detail (per field when relevant)."""

    error = serializers.CharField()
    detail = serializers.JSONField()


def error_responses(*codes: int) -> dict[int, type[ErrorSerializer]]:
    return {code: ErrorSerializer for code in codes}


def query_values(request: Request) -> dict[str, str]:
    """The query's parameters for a serializer, each its last value. Given the QueryDict,
    DRF reads an empty `?status=` as no filter at all, as an HTML form means it; the
    schema says a status is one of the statuses, so here it is checked as one (400)."""
    return request.query_params.dict()


def signed_in_user(request: Request) -> User:
    user = request.user
    if not isinstance(user, User):
        raise exceptions.NotAuthenticated()
    return user


class IsOwner(BasePermission):
    """Object permission: the object's `owner` is the signed-in user."""

    message = "only the owner of this bot may do this"

    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool:
        return bool(getattr(obj, "owner_id", None) == request.user.id)


class IsOwnerOrStaff(IsOwner):
    """Object permission: the object's owner, or staff (as admins: renaming, retiring or
    deleting a bot)."""

    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool:
        return super().has_object_permission(request, view, obj) or bool(request.user.is_staff)


class Conflict(exceptions.APIException):
    """The request is understood and allowed, but what it asks for clashes with what
    exists (a bot that other players' histories refer to cannot be deleted)."""

    status_code = 409
    default_detail = "this conflicts with the resource's state"
    default_code = "conflict"


class FileContentNegotiation(BaseContentNegotiation):
    """For views that answer with a file: whatever the client accepts, the file comes
    back as it is, and errors as JSON."""

    def select_parser(self, request: Request, parsers: Iterable[BaseParser]) -> BaseParser | None:
        return next(iter(parsers), None)

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderer = next(iter(renderers))
        return renderer, renderer.media_type


def refuse_oversized_upload(request: Request) -> None:
    """Refuse a request body far above the package limit before it is read to disk."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > MAX_PACKED_BYTES + MULTIPART_OVERHEAD:
        raise exceptions.ValidationError(
            f"the package is larger than {MAX_PACKED_BYTES // (1024 * 1024)} MiB"
        )


SMALL_BODY_BYTES = 16 * 1024
"""The most a SmallJSONParser reads: settings and webhooks are a few hundred bytes."""


class PayloadTooLarge(exceptions.APIException):
    status_code = 413
    default_detail = "the request's body is too large"
    default_code = "payload_too_large"


def _content_length(request: Any) -> int:
    meta = getattr(request, "META", {})
    try:
        return int(meta.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class SmallJSONParser(JSONParser):
    """JSON bodies of at most SMALL_BODY_BYTES, a larger one refused (413) before it is
    read: DRF's own parser reads whatever length it is sent (Django bounds only
    `request.body` and forms)."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        request = (parser_context or {}).get("request")
        if _content_length(request) > SMALL_BODY_BYTES:
            raise PayloadTooLarge(
                f"the request's body is larger than {SMALL_BODY_BYTES // 1024} KiB"
            )
        return super().parse(stream, media_type, parser_context)
