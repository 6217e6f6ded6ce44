"""Security headers on every response, the operations endpoints and static files
included (this middleware is first in MIDDLEWARE, so it sees every response leave).

The Content-Security-Policy allows only this site's own scripts, styles, images and
connections: the pages use no inline script or style and no other host (their JS sets
styles through the CSSOM, which a policy does not restrict), and so does the API's
Swagger UI, served from drf-spectacular-sidecar with its start script in a file of its
own (agon.urls). Images may also be `data:` URIs: Swagger UI's icons are. Django's
SecurityMiddleware and XFrameOptionsMiddleware set the rest for the site; here they are
set too where those did not run."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
}


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        for name, value in HEADERS.items():
            if name not in response:
                response[name] = value
        return response
