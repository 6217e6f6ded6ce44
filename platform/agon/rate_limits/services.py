"""Taking an attempt from a rate limit, and giving it back.

The limits are AGON_RATE_LIMITS (settings/base.py, each from its environment variable):
sign-ups per client address, failed sign-ins per username and per address, uploads,
challenges and resumptions per user, timelines and dataset downloads per user or
address. An attempt is counted before it is served, so that requests arriving together
cannot all slip in under the limit: exactly the limit gets through in a window.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest

from agon.env import parse_rate
from agon.rate_limits.counters import rate_counter

REFUSALS = {
    "signup": "too many sign-ups from your address",
    "signin-username": "too many failed sign-ins for this username",
    "signin-address": "too many failed sign-ins from your address",
    "upload": "too many uploads",
    "challenge": "too many challenges",
    "timeline": "too many timelines asked for",
    "resume": "too many resumptions",
    "dataset": "too many dataset downloads",
    "webhook-test": "too many webhook tests",
}
"""What a refusal says, by limit (the keys of AGON_RATE_LIMITS)."""


class RateLimited(Exception):
    def __init__(self, limit: str, retry_after: int) -> None:
        self.limit, self.retry_after = limit, retry_after
        super().__init__(f"{REFUSALS[limit]}: try again in {wait_text(retry_after)}")

    @property
    def message(self) -> str:
        return str(self)


@dataclass(frozen=True)
class Taken:
    """The counters one attempt was counted in, to give it back if it should not count."""

    keys: tuple[str, ...] = ()


def wait_text(seconds: int) -> str:
    if seconds < 120:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    if minutes < 120:
        return f"{minutes} minutes"
    return f"{math.ceil(minutes / 60)} hours"


def _key(limit: str, who: str) -> str:
    # Usernames and addresses are the user's text: a digest keeps keys short and plain.
    return f"{limit}:{hashlib.sha256(who.encode()).hexdigest()[:40]}"


def limit_take(*, limits: Sequence[tuple[str, str]]) -> Taken:
    """Count one attempt in each `(limit, who)` (e.g. `("upload", "user:12")`), or raise
    RateLimited if one of them has no attempt left; the refused attempt then counts
    nowhere, so a client that keeps trying does not lengthen its wait."""
    counter = rate_counter()
    taken: list[str] = []
    for limit, who in limits:
        rate = parse_rate(settings.AGON_RATE_LIMITS[limit])
        if rate is None:
            continue
        allowed, period = rate
        key = _key(limit, who)
        hit = counter.hit(key, period)
        taken.append(key)
        if hit.count > allowed:
            for earlier in taken:
                counter.undo(earlier)
            raise RateLimited(limit, retry_after=max(1, math.ceil(hit.resets_in)))
    return Taken(tuple(taken))


def limit_give_back(taken: Taken) -> None:
    """Uncount an attempt that turned out not to count (a sign-in that succeeded)."""
    counter = rate_counter()
    for key in taken.keys:
        counter.undo(key)


def client_address(request: HttpRequest) -> str:
    """The address the request came from. Behind AGON_PROXY_COUNT proxies that each add
    the address they were reached from to X-Forwarded-For, it is the one the outermost
    proxy added; what a client writes there itself, further left, is not believed."""
    proxies: int = settings.AGON_PROXY_COUNT
    if proxies > 0:
        forwarded = [
            part.strip()
            for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if part.strip()
        ]
        if len(forwarded) >= proxies:
            return str(forwarded[-proxies])
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def signin_limits(request: HttpRequest, username: str) -> list[tuple[str, str]]:
    """The limits a sign-in attempt counts in: its username's and its address's."""
    limits = [("signin-address", client_address(request))]
    if username.strip():
        limits.append(("signin-username", username.strip().lower()))
    return limits
