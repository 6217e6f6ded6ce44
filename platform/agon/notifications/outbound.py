"""One POST to a webhook, bounded: to the address just checked (agon.notifications.
addresses), no redirect followed, a deadline for the whole exchange, and at most
AGON_WEBHOOK_RESPONSE_BYTES of the response read."""

from __future__ import annotations

import contextlib
import http.client
import socket
import ssl
import threading
import time
from dataclasses import dataclass

from agon.notifications.addresses import BlockedAddress, Target, resolve, target_of


class SendError(Exception):
    """The POST did not reach the receiver or was not accepted (a status, if one came)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Response:
    status: int
    body: bytes
    """Its first bytes only."""


def post(
    url: str,
    body: bytes,
    headers: dict[str, str],
    *,
    timeout: float,
    max_response_bytes: int,
) -> Response:
    """POST `body` to `url`; a 2xx response, or SendError. Every other status is a
    failure, a redirect too: it is never followed (its target was never checked)."""
    try:
        target = target_of(url)
        addresses = resolve(target)
    except (ValueError, BlockedAddress) as error:
        raise SendError(str(error)) from None
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection((str(addresses[0]), target.port), timeout=timeout)
    except OSError as error:
        raise SendError(f"cannot connect to {target.host}:{target.port}: {error}") from None
    # A receiver that answers a byte at a time is cut off at the deadline, whatever
    # each read's own timeout.
    watchdog = threading.Timer(timeout, _shut, args=(sock,))
    watchdog.daemon = True
    watchdog.start()
    try:
        if target.scheme == "https":
            context = ssl.create_default_context()
            sock = context.wrap_socket(sock, server_hostname=target.host)
        connection = http.client.HTTPConnection(target.host, target.port, timeout=timeout)
        connection.sock = sock  # the checked address, not a second lookup of the name
        connection.request("POST", target.path, body=body, headers=_with_host(target, headers))
        response = connection.getresponse()
        received = response.read(max_response_bytes)
        status = response.status
        location = response.getheader("Location", "")
        connection.close()
    except (OSError, http.client.HTTPException, ssl.SSLError) as error:
        late = time.monotonic() >= deadline
        raise SendError(
            f"no answer within {timeout:g} s" if late else f"{type(error).__name__}: {error}"
        ) from None
    finally:
        watchdog.cancel()
        sock.close()
    if 300 <= status < 400:
        raise SendError(f"HTTP {status}: redirects are not followed ({location[:100]})", status)
    if not 200 <= status < 300:
        raise SendError(f"HTTP {status}", status)
    return Response(status, received)


def _with_host(target: Target, headers: dict[str, str]) -> dict[str, str]:
    """The Host header as a browser sends it: the port only when not the scheme's own
    (http.client would name port 443 on the plain connection it is given)."""
    host = f"[{target.host}]" if ":" in target.host else target.host
    default = 443 if target.scheme == "https" else 80
    return {**headers, "Host": host if target.port == default else f"{host}:{target.port}"}


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # closed already
        sock.shutdown(socket.SHUT_RDWR)
