"""Version-test reads: a bot's tests, one test with its games, a test in plain words."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

from agon.bots.models import Bot
from agon.tournaments.formats.sprt import Sprt
from agon.tournaments.formats.sprt_words import VersionTestState
from agon.version_tests.models import VersionTest, VersionTestGame

_WITH_VERSIONS = ("candidate__bot__owner", "baseline__bot__owner", "bot__owner")


def version_tests_visible(bot: Bot, viewer: Any) -> bool:
    """A bot's version tests, and their games, are its owner's business: they and staff
    see them (as `agon.matches.visibility` shows their matches to who made them)."""
    if viewer is None or not viewer.is_authenticated:
        return False
    return bool(viewer.is_staff) or viewer.id == bot.owner_id


def version_tests_of(*, bot: Bot, viewer: Any) -> QuerySet[VersionTest]:
    """The bot's tests `viewer` may see (all or none), newest first, with their versions."""
    tests = VersionTest.objects.filter(bot=bot).select_related(*_WITH_VERSIONS).order_by("-id")
    return tests if version_tests_visible(bot, viewer) else tests.none()


def version_test_get(*, bot_id: int, test_id: int, viewer: Any) -> VersionTest | None:
    """One test of the bot with its games (`games`, in order, each with its match), if
    `viewer` may see it."""
    test = (
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
    return test if test is not None and version_tests_visible(test.bot, viewer) else None


def version_test_state(*, test: VersionTest) -> VersionTestState:
    """What `agon.tournaments.formats.sprt_words` says the test asks and found: its versions
    named as on its page (v2 against v1 of the same bot; another bot by its label)."""
    baseline = test.baseline_label
    if test.baseline is not None and test.baseline.bot_id == test.bot_id:
        baseline = f"v{test.baseline.number}"
    return VersionTestState(
        candidate=f"v{test.candidate.number}",
        baseline=baseline,
        sprt=Sprt(elo0=test.elo0, elo1=test.elo1, alpha=test.alpha, beta=test.beta),
        pentanomial=list(test.pentanomial) or [0] * 5,
        games=test.games_counted,
        wins=test.wins,
        draws=test.draws,
        losses=test.losses,
        max_games=test.max_games,
        status=test.status,
        verdict=test.verdict,
        error=test.error,
        mirrored=test.players > 2,
    )
