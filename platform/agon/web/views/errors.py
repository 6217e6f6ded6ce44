"""Django's error handlers (urls.py's handler400/403/404/500, CSRF_FAILURE_VIEW): JSON in
the API's shape under /api/, a plain page in the site's style elsewhere. With DEBUG off
(the default, also under `agon up`) these are what anybody sees: never Django's debug
pages with the URL patterns, settings and code."""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils.html import escape

from agon.api_errors import json_error

TEMPLATE = "web/error.html"
logger = logging.getLogger(__name__)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _message(exception: Exception | None) -> str | None:
    """The message a view gave its exception, if a sentence (a Resolver404 has a dict)."""
    args = getattr(exception, "args", ())
    return args[0] if args and isinstance(args[0], str) and args[0] else None


def _page(request: HttpRequest | None, status: int, title: str, message: str) -> HttpResponse:
    context = {"status": status, "title": title, "message": message}
    # Without the request for a 500: its context processors read the session and the
    # user from the database, which may be what failed.
    try:
        page: str = loader.render_to_string(TEMPLATE, context, request)
    except Exception:  # an error page must not fail (no static manifest, a broken base)
        logger.exception("the error page %s could not be drawn", status)
        page = (
            f'<!doctype html><html lang="en"><title>{escape(title)}</title>'
            f"<h1>{escape(title)}</h1><p>{escape(message)}</p></html>"
        )
    return HttpResponse(page, status=status)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return json_error(400, "bad request")
    return _page(None, 400, "Bad request", "The server could not understand this request.")


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    message = _message(exception) or "you may not see this page"
    if _is_api(request):
        return json_error(403, message)
    return _page(request, 403, "Forbidden", f"{message[:1].upper()}{message[1:]}.")


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return json_error(404, f"there is no API endpoint at {request.path}")
    message = _message(exception)
    text = f"{message[:1].upper()}{message[1:]}." if message else "There is no page here."
    return _page(request, 404, "Page not found", text)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return json_error(500, "the server failed to answer this request; it has been logged")
    return _page(
        None,
        500,
        "Something went wrong",
        "The server failed to show this page. It has been logged; please try again later.",
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if _is_api(request):
        return json_error(403, f"CSRF check failed: {reason}")
    return _page(
        request,
        403,
        "Forbidden",
        "This form could not be checked: it may have expired, or your browser did not "
        "send its cookie. Please reload the page and try again.",
    )
