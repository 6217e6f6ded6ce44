"""Every API error is JSON with a clear message: `{"error": "...", "detail": ...}`."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, JsonResponse
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler


def _first_message(detail: Any) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            inner = _first_message(value)
            return inner if key in ("detail", "non_field_errors") else f"{key}: {inner}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def json_exception_handler(error: Exception, context: dict[str, Any]) -> Response | None:
    # Django's own errors keep the message a service or selector gave them, if any.
    if isinstance(error, ValidationError):
        error = exceptions.ValidationError(error.messages)
    elif isinstance(error, Http404):
        error = exceptions.NotFound(str(error) or None)
    elif isinstance(error, PermissionDenied):
        error = exceptions.PermissionDenied(str(error) or None)
    response = exception_handler(error, context)
    if response is None:
        return None
    detail = response.data
    response.data = {"error": _first_message(detail), "detail": detail}
    return response


def json_error(status: int, message: str) -> JsonResponse:
    """An error in the API's shape, for the errors Django answers before or after DRF
    (an unknown path, a bad Host, a crash): the same JSON as DRF's own."""
    return JsonResponse({"error": message, "detail": {"detail": message}}, status=status)
