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
from agon.ladders.models import Ladder, Rating
from agon.listings import aware
from agon.prepared import prepared_cursor
from agon.ratings.stored import RATING_COLUMNS, rating_of
from competition import ratings
from competition.ratings.system import RatingEstimate

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


@dataclass(frozen=True, slots=True)
class VersionShown:
    """A version as a bot's detail shows it."""

    number: int
    status: str
    reason: str
    paused_reason: str
    created: datetime
    sha256: str
    size: int
    filename: str


@dataclass(frozen=True, slots=True)
class RatingShown:
    """A bot's rating on one ladder as its detail shows it."""

    ladder: int
    ladder_name: str
    rating: RatingEstimate
    games: int
    wins: int
    shared_firsts: int
    provisional: bool
    active: bool
    version: int


@dataclass(frozen=True, slots=True)
class BotDetail:
    """A bot with its owner's name, its versions (oldest first) and its ratings, from
    plain rows."""

    id: int
    name: str
    owner_id: int
    owner: str
    game: str
    open_to_events: bool
    retired: datetime | None
    created: datetime
    versions: list[VersionShown]
    ratings: list[RatingShown]

    @property
    def active_version(self) -> int | None:
        """The number of the version that plays for it, if one passed validation."""
        active = [v.number for v in self.versions if v.status == BotVersion.Status.ACTIVE]
        return active[0] if active else None


_BOT = Bot._meta.db_table
_VERSION = BotVersion._meta.db_table
_USER = User._meta.db_table
_RATING = Rating._meta.db_table
_LADDER = Ladder._meta.db_table

_DETAIL_SQL = f"""
SELECT b.id, b.name, b.owner_id, u.username, b.game, b.open_to_events, b.retired, b.created,
    v.number, v.status, v.reason, v.paused_reason, v.created, v.sha256, v.size, v.filename
FROM {_BOT} b
JOIN {_USER} u ON u.id = b.owner_id
LEFT JOIN {_VERSION} v ON v.bot_id = b.id
WHERE b.id = %s
ORDER BY v.number
"""  # noqa: S608 - table names from the models

_RATINGS_SQL = f"""
SELECT r.ladder_id, l.name, {", ".join(f"r.{column}" for column in RATING_COLUMNS)},
    r.games, r.wins, r.shared_firsts, r.version_games, r.active, v.number
FROM {_RATING} r
JOIN {_LADDER} l ON l.id = r.ladder_id
JOIN {_VERSION} v ON v.id = r.version_id
WHERE r.bot_id = %s
ORDER BY r.id
"""  # noqa: S608 - table names from the models


def bot_detail(*, bot_id: int) -> BotDetail | None:
    """One bot as its detail shows it, in two statements on keys (the bot with its owner
    and versions; its ratings with their ladders and versions). `bot_get`'s three ORM
    queries and their models cost 3-4 ms of Python a request on the bench machine
    (bench/README.md, "Every read endpoint under 100 ms p99")."""
    with prepared_cursor() as cursor:
        cursor.execute(_DETAIL_SQL, [bot_id])
        rows = cursor.fetchall()
        if not rows:
            return None
        cursor.execute(_RATINGS_SQL, [bot_id])
        rating_rows = cursor.fetchall()
    first = rows[0]
    versions = [
        VersionShown(number, status, reason, paused, aware(created), sha256, size, filename)
        for (number, status, reason, paused, created, sha256, size, filename) in (
            row[8:] for row in rows
        )
        if number is not None
    ]
    shown = []
    for ladder, ladder_name, *rest in rating_rows:
        columns, rest = rest[: len(RATING_COLUMNS)], rest[len(RATING_COLUMNS) :]
        games, wins, shared_firsts, version_games, active, number = rest
        rating = rating_of(columns)
        shown.append(
            RatingShown(
                ladder,
                ladder_name,
                rating,
                games,
                wins,
                shared_firsts,
                ratings.is_provisional(rating, version_games),
                bool(active),
                number,
            )
        )
    return BotDetail(
        id=first[0],
        name=first[1],
        owner_id=first[2],
        owner=first[3],
        game=first[4],
        open_to_events=bool(first[5]),
        retired=aware(first[6]) if first[6] is not None else None,
        created=aware(first[7]),
        versions=versions,
        ratings=shown,
    )


def bot_version_of_owner(*, owner: User, bot_id: int, number: int) -> BotVersion | None:
    """A version of one of `owner`'s bots; None for anybody else's, as if it did not exist."""
    return (
        BotVersion.objects.select_related("bot")
        .filter(bot_id=bot_id, bot__owner=owner, number=number)
        .first()
    )
