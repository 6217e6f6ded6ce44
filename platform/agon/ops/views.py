"""`GET /healthz` and `GET /metrics`: thin views over `health` and `metrics`.

They are served by `OpsEndpointsMiddleware`, first in the chain, not through the URL
configuration: see `agon.ops.middleware` for why.
"""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse

from agon.ops.health import health
from agon.ops.metrics import render_metrics

READ_METHODS = ["GET", "HEAD"]


def healthz(request: HttpRequest) -> HttpResponse:
    """200 and each check when the database and the broker answer, else 503 with the
    failed checks and why. No sandbox runs here: `agon health --worker` does that."""
    if request.method not in READ_METHODS:
        return HttpResponseNotAllowed(READ_METHODS)
    report = health()
    response = JsonResponse(report.to_json(), status=200 if report.ok else 503)
    response["Cache-Control"] = "no-store"
    return response


def metrics_authorized(request: HttpRequest) -> bool:
    """Without AGON_METRICS_TOKEN anyone may read the metrics; with it, only a request
    with `Authorization: Bearer <token>`."""
    token = settings.AGON_METRICS_TOKEN
    if not token:
        return True
    sent = request.headers.get("Authorization", "")
    return hmac.compare_digest(sent.encode(), f"Bearer {token}".encode())


def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus' text format (or OpenMetrics when the scraper asks for it)."""
    if request.method not in READ_METHODS:
        return HttpResponseNotAllowed(READ_METHODS)
    if not metrics_authorized(request):
        response = HttpResponse("a bearer token is needed\n", status=401, content_type="text/plain")
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    body, content_type = render_metrics(request.headers.get("Accept"))
    response = HttpResponse(body, content_type=content_type)
    response["Cache-Control"] = "no-store"
    return response
