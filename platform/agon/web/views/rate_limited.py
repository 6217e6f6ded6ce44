"""A page refused by a rate limit (agon.rate_limits): the same page, with its form empty and
the reason above it, as 429 with Retry-After."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.text import capfirst

from agon.rate_limits.services import RateLimited


def refused_page(
    request: HttpRequest, template: str, context: dict[str, Any], limited: RateLimited
) -> HttpResponse:
    response = render(
        request, template, {**context, "refusal": f"{capfirst(limited.message)}."}, status=429
    )
    response["Retry-After"] = str(limited.retry_after)
    return response
