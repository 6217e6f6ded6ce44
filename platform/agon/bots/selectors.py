"""Bot reads: the public directory of bots, one bot with its versions and ratings, and
a version's archive for its owner."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet

from agon.bots.models import Bot, BotVersion
from agon.ladders.models import Rating

BOT_COLUMNS = ("id", "name", "owner_id", "game", "open_to_events", "retired", "created")


def bot_list(*, owner: str | None = None, game: str | None = None) -> QuerySet[Any]:
    """Every bot, oldest first, optionally filtered, as tuples of BOT_COLUMNS: page it,
    then give the page to `bot_rows`.

    Read from the bots' table alone, so a deep page skips its rows in the primary key's
    index without joining them; the page's owners and active versions come after."""
    bots = Bot.objects.all()
    if owner is not None:
        bots = bots.filter(owner__username=owner)
    if game is not None:
        bots = bots.filter(game=game)
    return bots.order_by("id").values_list(*BOT_COLUMNS)


@dataclass(frozen=True, slots=True)
class BotRow:
    """A listed bot, from plain rows (a page of models and their prefetches cost several
    times the Python)."""

    id: int
    name: str
    owner: str
    game: str
    active_version: int | None
    """The number of the version that plays for it, if one passed validation."""
    open_to_events: bool
    retired: datetime | None
    created: datetime


def bot_rows(page: Sequence[tuple[Any, ...]]) -> list[BotRow]:
    """A page of `bot_list` with its owners' names and active versions: two queries on
    keys."""
    owners = dict(
        User.objects.filter(id__in={row[2] for row in page}).values_list("id", "username")
    )
    active = dict(
        BotVersion.objects.filter(
            bot_id__in=[row[0] for row in page], status=BotVersion.Status.ACTIVE
        ).values_list("bot_id", "number")
    )
    return [
        BotRow(bot, name, owners[owner], game, active.get(bot), opened, retired, created)
        for bot, name, owner, game, opened, retired, created in page
    ]


def bot_get(*, bot_id: int) -> Bot | None:
    """One bot with its owner, every version (oldest first), its active version
    (`active_versions`: a list of one, or empty while none has passed validation) and its
    ratings with their ladders and versions: three queries."""
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
