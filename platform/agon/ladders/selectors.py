"""Ladder reads: the ladders and their leaderboards."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from agon.bots.models import Bot, BotVersion
from agon.ladders.models import LEADERBOARD_ORDER, Ladder, Rating
from agon.listings import Listing, Value
from agon.matches.models import Match
from agon.ratings.stored import RATING_COLUMNS, rating_of
from competition import ratings


def ladder_list() -> QuerySet[Ladder]:
    """Every open ladder (a competition's are on its page), with the number of bots
    rated on it (`bots`), counted per ladder in the `leaderboard` index rather than by
    joining every rating."""
    rated = (
        Rating.objects.filter(ladder=OuterRef("pk"), active=True)
        .order_by()
        .values("ladder")
        .annotate(bots=Count("id"))
        .values("bots")
    )
    return (
        Ladder.objects.filter(open=True)
        .annotate(bots=Coalesce(Subquery(rated), 0))
        .order_by("game", "players", "id")
    )


def ranked_matches_since(since: datetime) -> dict[int, int]:
    """The ranked matches made since `since`, per ladder id. Matches are numbered in the
    order they are made: the count reads the primary key back from the newest match to
    the first one made before `since`, not the whole table."""
    before = (
        Match.objects.filter(created__lt=since).order_by("-id").values_list("id", flat=True).first()
    )
    recent = Match.objects.filter(
        kind=Match.Kind.RANKED, ladder__isnull=False, id__gt=before or 0
    ).order_by()
    return {
        ladder_id: count
        for ladder_id, count in recent.values_list("ladder_id").annotate(count=Count("id"))
        if ladder_id is not None
    }


def ladder_get(*, ladder_id: int) -> Ladder | None:
    return Ladder.objects.filter(id=ladder_id).first()


def ladder_exists(*, ladder_id: int) -> bool:
    """Whether there is such a ladder: one plain statement, for every leaderboard page
    (through the ORM, compiling the query cost a tenth of the page)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {Ladder._meta.db_table} WHERE id = %s", [ladder_id])  # noqa: S608
        return cursor.fetchone() is not None


@dataclass(frozen=True)
class Standing:
    """A row of a leaderboard: its `rank` is its place in the leaderboard's order (by the
    low end of its rating's interval, provisional ratings included, see
    `competition.ratings.ranking_value`); `provisional` marks a rating still too new to trust."""

    rank: int
    bot: int
    name: str
    owner: str
    version: int
    rating: ratings.RatingEstimate
    games: int
    wins: int
    shared_firsts: int
    provisional: bool

    @property
    def shown(self) -> str:
        return ratings.display(self.rating)

    @property
    def shown_parts(self) -> tuple[str, str]:
        """The rating and its interval apart ("1523", "± 98"; the interval "" where the
        rating system shows none): a phone's leaderboard puts them on two lines."""
        value, sign, interval = self.shown.partition(" ± ")
        return value, f"{sign.strip()} {interval}" if sign else ""


def order_sql(*, alias: str = "") -> str:
    """LEADERBOARD_ORDER as an SQL ORDER BY list, its columns qualified by `alias`."""
    prefix = f"{alias}." if alias else ""
    return ", ".join(
        f"{prefix}{field[1:]} DESC" if field.startswith("-") else f"{prefix}{field}"
        for field in LEADERBOARD_ORDER
    )


_RATING = Rating._meta.db_table
_BOT = Bot._meta.db_table
_VERSION = BotVersion._meta.db_table
_OWNER = Bot._meta.get_field("owner").related_model._meta.db_table  # type: ignore[union-attr]

_STANDINGS_SQL = f"""
WITH page AS (
    SELECT id FROM {_RATING}{{where}} ORDER BY {order_sql()} LIMIT %s OFFSET %s
)
SELECT r.bot_id, b.name, u.username, v.number, r.games, r.wins, r.shared_firsts,
    r.version_games, r.rankable,
    {", ".join(f"r.{column}" for column in RATING_COLUMNS)}
FROM page
JOIN {_RATING} r ON r.id = page.id
JOIN {_BOT} b ON b.id = r.bot_id
JOIN {_OWNER} u ON u.id = b.owner_id
JOIN {_VERSION} v ON v.id = r.version_id
ORDER BY {order_sql(alias="r")}
"""  # noqa: S608 - table names from the models


class LeaderboardListing(Listing[Standing]):
    """The active ratings of a ladder, best first (see `agon.listings`): a page's
    standings with their bots' names, owners and version numbers in one statement, its
    keys read in the order of the `leaderboard` index. As a queryset of ratings and two
    more queries for the names and versions, it took about 4 ms of Python a page on the
    bench's ladders."""

    def __init__(self, *, ladder_id: int) -> None:
        super().__init__(_RATING, ["ladder_id = %s", "active"], [ladder_id])

    def page_sql(self, start: int, stop: int) -> tuple[str, list[Value]]:
        return _STANDINGS_SQL.format(where=self.where), [*self.params, stop - start, start]

    def rows(self, fetched: list[tuple[Any, ...]], start: int) -> list[Standing]:
        standings = []
        for place, row in enumerate(fetched, start=start + 1):
            bot_id, name, owner, number, games, wins, shared_firsts, version_games = row[:8]
            columns = row[9:]
            rating = rating_of(columns)
            standings.append(
                Standing(
                    rank=place,
                    bot=bot_id,
                    name=name,
                    owner=owner,
                    version=number,
                    rating=rating,
                    games=games,
                    wins=wins,
                    shared_firsts=shared_firsts,
                    provisional=ratings.is_provisional(rating, version_games),
                )
            )
        return standings


@dataclass(frozen=True)
class BotStanding:
    """A bot's place on one ladder: what its owner's list of bots shows."""

    ladder: str
    ladder_id: int
    rank: int
    of: int
    shown: str
    games: int
    provisional: bool


def standings_of_bots(bot_ids: list[int]) -> dict[int, list[BotStanding]]:
    """Bot id -> its active ratings' places, ladder by ladder, ranked in the leaderboards'
    order (LEADERBOARD_ORDER); one statement whatever the number of bots."""
    active = Rating.objects.filter(ladder_id=OuterRef("ladder_id"), active=True)
    ahead = active.filter(
        Q(ranking__gt=OuterRef("ranking"))
        | Q(ranking=OuterRef("ranking"), rating__gt=OuterRef("rating"))
        | Q(ranking=OuterRef("ranking"), rating=OuterRef("rating"), id__lt=OuterRef("id"))
    )
    rows = (
        Rating.objects.filter(bot_id__in=bot_ids, active=True)
        .select_related("ladder")
        .annotate(
            ahead=_count_of(ahead),
            rated=_count_of(active),
        )
        .order_by("ladder__game", "ladder__players")
    )
    found: dict[int, list[BotStanding]] = {}
    for row in rows:
        found.setdefault(row.bot_id, []).append(
            BotStanding(
                ladder=row.ladder.name,
                ladder_id=row.ladder_id,
                rank=row.ahead + 1,
                of=row.rated,
                shown=row.shown,
                games=row.games,
                provisional=row.provisional,
            )
        )
    return found


def _count_of(rows: QuerySet[Rating]) -> Coalesce:
    counted = rows.order_by().values("ladder_id").annotate(n=Count("id")).values("n")[:1]
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)
