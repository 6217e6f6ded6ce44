"""Match reads: lists with filters, one match, the seats of matches, a seat's log."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Count, F, Max, Min, Prefetch, Q, QuerySet, prefetch_related_objects
from django.utils import timezone

from agon.bots.models import Bot, BotVersion
from agon.listings import Listing, Value, aware
from agon.matches.models import Match, MatchSeat
from agon.matches.visibility import match_visible, visible_matches_sql
from agon.prepared import prepared_cursor, preparing


@dataclass(frozen=True)
class SeatShown:
    """A seat as the API shows it in a match, with the bot, owner and version behind it."""

    seat: int
    bot: int | None
    """None for a builtin opponent."""
    version: int | None
    bot_label: str
    """`owner/name@vN` for an uploaded bot, `builtin:name` for a builtin one."""
    rank: int | None
    score: int | None
    fault: str
    owner: str | None = None
    name: str | None = None
    """The owner's username and the bot's name (None for a builtin): for the pages."""
    builtin: str = ""
    """A builtin opponent's name."""
    human: str = ""
    """The username of who played the seat in the browser (a human game's)."""


_MATCH = Match._meta.db_table
_SEAT = MatchSeat._meta.db_table
_VERSION = BotVersion._meta.db_table
_BOT = Bot._meta.db_table
_OWNER = Bot._meta.get_field("owner").related_model._meta.db_table  # type: ignore[union-attr]

_SEATS_SQL = f"""
SELECT s.match_id, s.seat, v.bot_id, v.number, s.builtin, s.rank, s.score, s.fault,
       b.name, u.username, h.username
FROM {_SEAT} s
LEFT JOIN {_VERSION} v ON v.id = s.version_id
LEFT JOIN {_BOT} b ON b.id = v.bot_id
LEFT JOIN {_OWNER} u ON u.id = b.owner_id
LEFT JOIN {_OWNER} h ON h.id = s.human_id
WHERE s.match_id {{keys}}
ORDER BY s.match_id, s.seat
"""  # noqa: S608 - table names from the models


def match_seats(match_ids: Collection[int]) -> dict[int, list[SeatShown]]:
    """The seats of these matches (a page of them), in seat order, by match id: one
    statement joining the seats to their versions, bots and owners by key. Only the shown
    columns are read (not a seat's log: up to 256 KiB of a bot's stderr).

    Through the ORM this took three queries and, prefetched, a model instance per seat,
    version, bot and owner: 12 ms of a page's 20 ms of Python on 50 matches. Joined, it
    relies on PostgreSQL pricing random reads as for a database in memory
    (`RANDOM_PAGE_COST` in the settings): at its default the planner hashes every bot
    version for a page's few hundred seats."""
    shown: dict[int, list[SeatShown]] = {match_id: [] for match_id in match_ids}
    if not shown:
        return shown
    with prepared_cursor() as cursor:
        if preparing():  # one text for every page, prepared once
            cursor.execute(_SEATS_SQL.format(keys="= ANY(%s)"), [list(shown)])
        else:
            keys = ", ".join(["%s"] * len(shown))
            cursor.execute(_SEATS_SQL.format(keys=f"IN ({keys})"), list(shown))
        rows = cursor.fetchall()
    for match_id, seat, bot_id, number, builtin, rank, score, fault, name, owner, human in rows:
        if bot_id is not None:
            label = f"{owner}/{name}@v{number}"
        else:
            label = f"human:{human}" if human else f"builtin:{builtin}"
        shown[match_id].append(
            SeatShown(
                seat, bot_id, number, label, rank, score, fault, owner, name, builtin, human or ""
            )
        )
    return shown


@dataclass(frozen=True)
class ListedMatch:
    """A match as the API lists it."""

    id: int
    kind: str
    ladder: int | None
    game: str
    players: int
    status: str
    created: datetime
    finished: datetime | None
    seats: list[SeatShown]
    match_seconds: float | None = None
    """Time in the sandbox, once played."""
    listed: str = ""
    """Its JSON in the API's lists, once finished (`agon.matches.listed`); else empty."""


_PAGE_SQL = f"""
WITH page AS (SELECT id FROM {_MATCH}{{where}} ORDER BY {{order}} LIMIT %s OFFSET %s)
SELECT m.id, m.kind, m.ladder_id, m.game, m.players, m.status, m.created, m.finished,
    m.match_seconds, m.listed{{count}}
FROM page JOIN {_MATCH} m ON m.id = page.id
ORDER BY {{outer_order}}
"""  # noqa: S608 - table names from the models


class MatchListing(Listing[ListedMatch]):
    """Matches, newest first, filtered by bot, ladder, status or game, as the API lists
    them (see `agon.listings`): a page's matches in one statement, their seats in one more
    (`match_seats`). A queryset of matches, their seats through the ORM and DRF's
    serializer took five queries and about 9 ms of Python a page on the bench's 200,000
    matches.

    `by_finish` lists the last finished first instead (the home page's recent matches):
    no index serves that order, so it is for short pages of finished matches."""

    def __init__(
        self,
        *,
        viewer: Any,
        bot_id: int | None = None,
        ladder_id: int | None = None,
        status: str | None = None,
        statuses: Collection[str] = (),
        game: str | None = None,
        by_finish: bool = False,
        kinds: Collection[str] = (),
        other_kinds: bool = False,
        seats: bool = True,
    ) -> None:
        """`viewer`: the user asking (None or anonymous for nobody signed in), who sees
        the matches `matches_visible_to` gives them. `statuses`: any of these (with
        `status`, both must hold). `kinds`: matches of any of these kinds (or, with
        `other_kinds`, of none of them). `seats`: read each page's seats (else its
        matches come without: `agon.matches.listed` writes finished ones from their
        entries, and reads the others' seats)."""
        self.with_seats = seats
        self.order = "finished DESC, id DESC" if by_finish else "id DESC"
        where: list[str] = []
        params: list[Value] = []
        visible = visible_matches_sql(viewer)
        if visible is not None:
            where.append(visible[0])
            params += visible[1]
        if bot_id is not None:
            # From the bot's few versions through the `seat_version_match` index.
            where.append(
                f"id IN (SELECT s.match_id FROM {_SEAT} s JOIN {_VERSION} v"  # noqa: S608
                " ON v.id = s.version_id WHERE v.bot_id = %s)"
            )
            params.append(bot_id)
            self.counted_with_page = True  # a bot's matches: tens to thousands
        for column, value in (("ladder_id", ladder_id), ("status", status), ("game", game)):
            if value is not None:
                where.append(f"{column} = %s")
                params.append(value)
        if statuses:
            where.append(f"status IN ({', '.join(['%s'] * len(statuses))})")
            params += sorted(statuses)
        if kinds:
            negation = "NOT " if other_kinds else ""
            where.append(f"kind {negation}IN ({', '.join(['%s'] * len(kinds))})")
            params += sorted(kinds)
        super().__init__(_MATCH, where, params)

    def page_sql(self, start: int, stop: int) -> tuple[str, list[Value]]:
        outer_order = ", ".join(f"m.{key}" for key in self.order.split(", "))
        sql = _PAGE_SQL.format(
            where=self.where, order=self.order, outer_order=outer_order, count=""
        )
        return sql, [*self.params, stop - start, start]

    def page_and_count(self, start: int, stop: int) -> tuple[list[ListedMatch], int | None]:
        """The page and the count in one statement (the count a scalar subquery, run
        once): a bot's matches are a different list for each bot, rarely found in the list
        cache. One round trip fewer; PostgreSQL's planning is most of their cost either
        way (bench/README.md, "Fourth round")."""
        outer_order = ", ".join(f"m.{key}" for key in self.order.split(", "))
        count = f", (SELECT count(*) FROM {self.table}{self.where})"  # noqa: S608
        sql = _PAGE_SQL.format(
            where=self.where, order=self.order, outer_order=outer_order, count=count
        )
        with prepared_cursor() as cursor:
            cursor.execute(sql, [*self.params, stop - start, start, *self.params])
            fetched = cursor.fetchall()
        if not fetched:
            return [], None
        return self.rows([row[:-1] for row in fetched], start), int(fetched[0][-1])

    def rows(self, fetched: list[tuple[Any, ...]], start: int) -> list[ListedMatch]:
        seats = match_seats([row[0] for row in fetched]) if self.with_seats else {}
        return [
            ListedMatch(
                match_id,
                kind,
                ladder_id,
                game,
                players,
                status,
                aware(created),
                aware(finished) if finished else None,
                seats.get(match_id, []),
                match_seconds,
                listed,
            )
            for (
                match_id,
                kind,
                ladder_id,
                game,
                players,
                status,
                created,
                finished,
                match_seconds,
                listed,
            ) in fetched
        ]


def match_get(*, match_id: int, viewer: Any) -> Match | None:
    """One match with its ladder, if `viewer` may see it (`agon.matches.visibility`);
    its seats from `match_seats`."""
    match = Match.objects.select_related("ladder").filter(id=match_id).first()
    return match if match is not None and match_visible(match, viewer) else None


def match_seat(*, match_id: int, seat: int, viewer: Any) -> MatchSeat | None:
    """One seat of a match `viewer` may see, with its match and bot (for the owner-only
    log: see `seat_owned_by`)."""
    found = (
        MatchSeat.objects.select_related("match", "version__bot")
        .filter(match_id=match_id, seat=seat)
        .first()
    )
    return found if found is not None and match_visible(found.match, viewer) else None


def seat_owned_by(seat: MatchSeat, owner: User) -> bool:
    """Whether the seat's bot belongs to `owner` (a builtin's belongs to nobody): who
    may read the seat's log."""
    return seat.version is not None and seat.version.bot.owner_id == owner.id


def silent_matches(*, stale_seconds: float | None = None) -> QuerySet[Match]:
    """Running matches whose run fell silent: no heartbeat for `stale_seconds`
    (AGON_MATCH_STALE_SECONDS unless given). Read over the status index: running
    matches are few."""
    if stale_seconds is None:
        stale_seconds = settings.AGON_MATCH_STALE_SECONDS
    limit = timezone.now() - timedelta(seconds=stale_seconds)
    return Match.objects.filter(status=Match.Status.RUNNING).filter(
        Q(heartbeat__lt=limit) | Q(heartbeat__isnull=True, started__lt=limit)
    )


@dataclass(frozen=True)
class MatchQueue:
    """The matches waiting for a worker or being played, as the metrics show them."""

    queued: int
    running: int
    silent: int
    """Running matches whose run fell silent (`silent_matches`)."""
    oldest_queued_seconds: float
    """Age of the oldest queued match, since it was created (0 when none is queued)."""


def match_queue() -> MatchQueue:
    """Queued and running matches, counted over the `status` index: cheap because they
    are few whatever the size of the table (finished ones are never counted here)."""
    active = (Match.Status.QUEUED, Match.Status.RUNNING)
    counts = dict(
        Match.objects.filter(status__in=active)
        .order_by()
        .values_list("status")
        .annotate(n=Count("id"))
        .values_list("status", "n")
    )
    oldest = Match.objects.filter(status=Match.Status.QUEUED).aggregate(oldest=Min("created"))[
        "oldest"
    ]
    age = (timezone.now() - oldest).total_seconds() if oldest is not None else 0.0
    return MatchQueue(
        queued=counts.get(Match.Status.QUEUED, 0),
        running=counts.get(Match.Status.RUNNING, 0),
        silent=silent_matches().count(),
        oldest_queued_seconds=max(age, 0.0),
    )


@dataclass(frozen=True)
class HeadToHead:
    """A bot's record against one opponent bot, over the finished ranked matches they
    both played (in a match of more players, the pair's ranks between them)."""

    bot: int
    name: str
    owner: str
    game: str
    wins: int
    """Matches the bot finished ahead of the opponent."""
    draws: int
    """Matches they shared a place in (a tie is a draw, not a win for both)."""
    losses: int
    last_played: datetime | None

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


def head_to_head(*, bot: Bot) -> list[HeadToHead]:
    """The bot's record against each bot it met in a finished ranked match, the most
    played first: one SQL statement (the opponents' seats joined to the bot's own).

    Ranked games only: those matchmaking chose. Challenges, tournaments and version
    tests are games somebody chose the opponents of; counted, anybody could fill a bot's
    record with thousands of games of their choosing (and a private event's are nobody
    else's business)."""
    rows = (
        MatchSeat.objects.filter(
            match__status=Match.Status.FINISHED,
            match__kind=Match.Kind.RANKED,
            match__seats__version__bot=bot,
            version__isnull=False,
        )
        .exclude(version__bot=bot)
        # The bot's own seat in the same match: the join of the filter just above.
        .annotate(own_rank=F("match__seats__rank"))
        .values("version__bot", "version__bot__name", "version__bot__owner__username")
        .annotate(
            wins=Count("id", filter=Q(own_rank__lt=F("rank"))),
            draws=Count("id", filter=Q(own_rank=F("rank"))),
            losses=Count("id", filter=Q(own_rank__gt=F("rank"))),
            last_played=Max("match__finished"),
        )
        .order_by()
    )
    records = [
        HeadToHead(
            bot=row["version__bot"],
            name=row["version__bot__name"],
            owner=row["version__bot__owner__username"],
            game=bot.game,
            wins=row["wins"],
            draws=row["draws"],
            losses=row["losses"],
            last_played=row["last_played"],
        )
        for row in rows
    ]
    oldest = datetime.min.replace(tzinfo=UTC)
    return sorted(records, key=lambda r: (-r.games, -(r.last_played or oldest).timestamp(), r.bot))


def seats_with_versions(match: Match) -> list[MatchSeat]:
    """The match's seats in order, each with its version (None for a builtin): loaded
    once per match object, so that finishing a match and concluding its outcome (its
    ratings, its bots' faults) read them from the database once, in one transaction."""
    prefetch_related_objects(
        [match],
        Prefetch("seats", queryset=MatchSeat.objects.select_related("version").order_by("seat")),
    )
    return list(match.seats.all())
