"""The API's rate limits (agon.rate_limits): a refused request is 429 with Retry-After and
the JSON error of every other refusal, `{"error": "too many ...: try again in ..."}`."""

from __future__ import annotations

from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from agon.rate_limits.services import RateLimited, Taken, client_address, limit_take


def too_many(limited: RateLimited) -> exceptions.Throttled:
    refusal = exceptions.Throttled(detail=limited.message)
    # DRF's handler turns `wait` into Retry-After; given to Throttled, it would also
    # add its own sentence about it to the message.
    refusal.wait = limited.retry_after  # type: ignore[attr-defined]
    return refusal


def take_or_refuse(limits: list[tuple[str, str]]) -> Taken:
    try:
        return limit_take(limits=limits)
    except RateLimited as limited:
        raise too_many(limited) from None


class LimitThrottle(BaseThrottle):
    """Counts each request of `methods` (POST) in the view's limit, after authentication
    and permissions (a request refused for those does not count)."""

    limit = ""
    methods: tuple[str, ...] = ("POST",)

    def who(self, request: Request) -> str:
        return (
            f"user:{request.user.id}"
            if request.user.is_authenticated
            else (f"address:{client_address(request)}")
        )

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in self.methods:
            take_or_refuse([(self.limit, self.who(request))])
        return True


class SignUpThrottle(LimitThrottle):
    limit = "signup"

    def who(self, request: Request) -> str:
        return client_address(request)


class UploadThrottle(LimitThrottle):
    limit = "upload"


class ChallengeThrottle(LimitThrottle):
    limit = "challenge"


class ResumeThrottle(LimitThrottle):
    limit = "resume"


class TimelineThrottle(LimitThrottle):
    limit = "timeline"
    methods = ("GET", "HEAD")


class DatasetDownloadThrottle(LimitThrottle):
    limit = "dataset"
    methods = ("GET", "HEAD")
