"""Version-test reads: a bot's tests, one test with its games."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from agon.bots.models import Bot
from agon.version_tests.models import VersionTest, VersionTestGame

_WITH_VERSIONS = ("candidate__bot__owner", "baseline__bot__owner", "bot__owner")


def version_tests_of(*, bot: Bot) -> QuerySet[VersionTest]:
    """The bot's tests, newest first, with their versions."""
    return VersionTest.objects.filter(bot=bot).select_related(*_WITH_VERSIONS).order_by("-id")


def version_test_get(*, bot_id: int, test_id: int) -> VersionTest | None:
    """One test of the bot with its games (`games`, in order, each with its match)."""
    return (
        VersionTest.objects.filter(bot_id=bot_id, id=test_id)
        .select_related(*_WITH_VERSIONS)
        .prefetch_related(
            Prefetch(
                "games",
                queryset=VersionTestGame.objects.select_related("match").order_by(
                    "pair", "leg", "side"
                ),
            )
        )
        .first()
    )
