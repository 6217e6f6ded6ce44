"""Version-test reads: a bot's tests, one test with its games, a test in plain words, and
the other bots a test may measure against."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Prefetch, QuerySet

from agon.bots.models import Bot, BotVersion
from agon.ladders.models import LEADERBOARD_ORDER, Ladder, Rating
from agon.version_testing.models import VersionTest, VersionTestGame
from competition.sprt import Sprt
from competition.sprt_words import VersionTestState

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
    """What `competition.sprt_words` says the test asks and found: its versions
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


MOST_BASELINES_OFFERED = 200
"""Other users' public bots a form offers at most, the best rated first (the API takes
any public bot's id)."""


@dataclass(frozen=True)
class BaselineBot:
    """Another bot a test may measure against (its active version), as a form offers it."""

    bot_id: int
    name: str
    owner: str
    rating: str | None
    """Its rating shown on `ladder`, the game's ladder of fewest players; None unrated."""
    ladder: str | None


@dataclass(frozen=True)
class BaselineBots:
    own: list[BaselineBot]
    """The owner's other bots of the game with an active version, by name."""
    public: list[BaselineBot]
    """Other users' bots of the game open to events, not retired, with an active
    version: the best rated first, then the unrated by owner and name."""


def baseline_bots(*, bot: Bot, limit: int = MOST_BASELINES_OFFERED) -> BaselineBots:
    """The other bots `bot`'s versions may be tested against
    (`agon.version_testing.services.baseline_offered`, retired ones of other users left out)."""
    playing = (
        Bot.objects.filter(game=bot.game)
        .exclude(id=bot.id)
        .filter(
            Exists(BotVersion.objects.filter(bot=OuterRef("pk"), status=BotVersion.Status.ACTIVE))
        )
    )
    own = [
        BaselineBot(other.id, other.name, bot.owner.username, None, None)
        for other in playing.filter(owner_id=bot.owner_id).order_by("name", "id")
    ]
    public = playing.exclude(owner_id=bot.owner_id).filter(
        open_to_events=True, retired__isnull=True
    )
    ladder = (
        Ladder.objects.filter(game=bot.game, active=True, open=True)
        .order_by("players", "id")
        .first()
    )
    rated: list[BaselineBot] = []
    if ladder is not None:
        rated = [
            BaselineBot(row.bot_id, row.bot.name, row.bot.owner.username, row.shown, ladder.name)
            for row in Rating.objects.filter(ladder=ladder, bot__in=public)
            .select_related("bot__owner")
            .order_by(*LEADERBOARD_ORDER)[:limit]
        ]
    unrated = (
        public.exclude(id__in=[row.bot_id for row in rated])
        .select_related("owner")
        .order_by("owner__username", "name", "id")[: max(limit - len(rated), 0)]
    )
    return BaselineBots(
        own=own,
        public=rated
        + [
            BaselineBot(other.id, other.name, other.owner.username, None, None) for other in unrated
        ],
    )
