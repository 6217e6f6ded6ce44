"""Two middlewares, first in MIDDLEWARE: the operations endpoints, and request latency.

`OpsEndpointsMiddleware` answers `GET /healthz` and `GET /metrics` itself, before any
other middleware sees the request. A load balancer's health check and Prometheus
address an instance by its IP over plain HTTP, with whatever Host header that gives:
Django's host validation (ALLOWED_HOSTS, enforced by the first `request.get_host()`,
which CommonMiddleware makes) would answer 400, and production's SSL redirect
(SecurityMiddleware) 301. Neither endpoint builds a URL from the host, so skipping
that validation for them opens nothing, and ALLOWED_HOSTS stays the list of the site's
public names. The URL patterns never see these two paths.

`RequestMetricsMiddleware` times every other request (see `agon.ops.metrics`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase

from agon.counters import record_request
from agon.ops import views

GetResponse = Callable[[HttpRequest], HttpResponseBase]

OPS_ENDPOINTS: dict[str, Callable[[HttpRequest], HttpResponse]] = {
    "/healthz": views.healthz,
    "/metrics": views.metrics,
}


class OpsEndpointsMiddleware:
    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        endpoint = OPS_ENDPOINTS.get(request.path_info)
        if endpoint is not None:
            return endpoint(request)
        return self.get_response(request)


def route_name(request: HttpRequest) -> str:
    """The URL pattern's name (`matches`, `web:match`), never the raw path: `static` for
    the files WhiteNoise serves, `unmatched` when no pattern took the request."""
    match = getattr(request, "resolver_match", None)
    if match is not None:
        return str(match.view_name or match.route or "unnamed")
    if settings.STATIC_URL and request.path_info.startswith(f"/{settings.STATIC_URL.lstrip('/')}"):
        return "static"
    return "unmatched"


class RequestMetricsMiddleware:
    """Time to the response (to the first byte of a streamed one)."""

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        response = self.get_response(request)
        record_request(
            route=route_name(request),
            method=request.method or "",
            status=response.status_code,
            seconds=time.perf_counter() - started,
        )
        return response
