"""Webhook URLs are user input, and the platform POSTs to them from inside its network:
a URL must not reach the platform's own services (SSRF). It must be http or https, carry
no credentials, and name a host whose every address is public: not loopback, private,
link-local (cloud metadata at 169.254.169.254), shared, multicast or reserved, unless
AGON_WEBHOOKS_ALLOW_PRIVATE says otherwise (the tests' local receivers).

A URL is checked when it is saved (its literal address or well-known local names), and
its host's addresses are checked again at every send, where the connection is made to
the very address checked (a name that resolves to a public address when saved and to a
private one later gains nothing)."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError

from agon.notifications.models import URL_MAX

LOCAL_NAMES = ("localhost", ".localhost", ".local", ".internal", ".localdomain", ".home.arpa")
"""Names that only ever mean this machine or its network."""

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class BlockedAddress(ValueError):
    """The host is, or resolves to, an address webhooks may not reach."""


@dataclass(frozen=True, slots=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    """Path and query, as sent on the request line."""


def private_allowed() -> bool:
    return bool(settings.AGON_WEBHOOKS_ALLOW_PRIVATE)


def is_public(address: IPAddress) -> bool:
    """Whether an address is on the public Internet (an IPv4 address mapped into IPv6 is
    judged as itself)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def webhook_url_check(url: str) -> str:
    """The URL as kept, or ValidationError saying why webhooks may not use it."""
    url = url.strip()
    if len(url) > URL_MAX:
        raise ValidationError(f"the URL is longer than {URL_MAX} characters")
    try:
        target = target_of(url)
    except ValueError as error:
        raise ValidationError(str(error)) from None
    if not private_allowed():
        host = target.host.lower().rstrip(".")
        literal = _literal(host)
        if literal is not None and not is_public(literal):
            raise ValidationError(f"{host} is not a public address")
        if host == LOCAL_NAMES[0] or host.endswith(LOCAL_NAMES[1:]):
            raise ValidationError(f"{host} is a local name, not a public host")
    return url


def target_of(url: str) -> Target:
    """Where a URL points (ValueError if it is not an http or https URL one may use)."""
    if any(character.isspace() or ord(character) < 32 for character in url):
        raise ValueError("the URL has spaces or control characters")
    try:
        parts: SplitResult = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise ValueError(f"not a URL: {error}") from None
    if parts.scheme not in {"http", "https"}:
        raise ValueError("only http:// and https:// URLs are allowed")
    if not parts.hostname:
        raise ValueError("the URL names no host")
    if parts.username is not None or parts.password is not None:
        raise ValueError("the URL may not carry a user name or password")
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    default_port = 443 if parts.scheme == "https" else 80
    return Target(parts.scheme, parts.hostname, port or default_port, path)


def resolve(target: Target) -> list[IPAddress]:
    """The host's addresses, all of them allowed, or BlockedAddress: one address that
    is not public blocks the host (a name with a private address among public ones is
    a trick, not a mistake)."""
    literal = _literal(target.host)
    if literal is not None:
        addresses = [literal]
    else:
        try:
            infos = socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as error:
            raise BlockedAddress(f"{target.host} does not resolve: {error}") from None
        addresses = list(dict.fromkeys(ipaddress.ip_address(info[4][0]) for info in infos))
    if not addresses:
        raise BlockedAddress(f"{target.host} has no address")
    if not private_allowed():
        blocked = [str(address) for address in addresses if not is_public(address)]
        if blocked:
            raise BlockedAddress(
                f"{target.host} resolves to {', '.join(blocked)}, not a public address"
            )
    return addresses
