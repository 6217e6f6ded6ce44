"""Bot reads: the public directory of bots, one bot with its versions and ratings, and
a version's archive for its owner."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet

from agon.bots.models import Bot, BotVersion
from agon.ladders.models import Rating


def bot_list(*, owner: str | None = None, game: str | None = None) -> QuerySet[Bot]:
    """Every bot, oldest first, optionally filtered, with its owner and its active version
    (`active_versions`: a list of one, or empty while none has passed validation).

    Both are fetched for the page alone (prefetched, not joined), so a deep page skips
    its rows in the primary key's index without joining them."""
    bots = Bot.objects.prefetch_related(
        "owner",
        Prefetch(
            "versions",
            queryset=BotVersion.objects.filter(status=BotVersion.Status.ACTIVE),
            to_attr="active_versions",
        ),
    )
    if owner is not None:
        bots = bots.filter(owner__username=owner)
    if game is not None:
        bots = bots.filter(game=game)
    return bots.order_by("id")


def bot_get(*, bot_id: int) -> Bot | None:
    """One bot with its owner, every version (oldest first), its active version (as
    `bot_list` gives it) and its ratings with their ladders and versions: three queries."""
    bot = (
        Bot.objects.select_related("owner")
        .prefetch_related(
            Prefetch("versions", queryset=BotVersion.objects.order_by("number")),
            Prefetch("ratings", queryset=Rating.objects.select_related("ladder", "version")),
        )
        .filter(id=bot_id)
        .first()
    )
    if bot is not None:
        active = [v for v in bot.versions.all() if v.status == BotVersion.Status.ACTIVE]
        bot.active_versions = active  # type: ignore[attr-defined]
    return bot


def bot_version_of_owner(*, owner: User, bot_id: int, number: int) -> BotVersion | None:
    """A version of one of `owner`'s bots; None for anybody else's, as if it did not exist."""
    return (
        BotVersion.objects.select_related("bot")
        .filter(bot_id=bot_id, bot__owner=owner, number=number)
        .first()
    )
