"""Version-test reads: a bot's tests, one test with its games, a test in plain words."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from agon.bots.models import Bot
from agon.tournaments.formats.sprt import Sprt
from agon.tournaments.formats.sprt_words import VersionTestState
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
