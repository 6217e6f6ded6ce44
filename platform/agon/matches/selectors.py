"""Match reads: lists with filters, one match, the seats of matches, a seat's log."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import QuerySet

from agon.bots.models import Bot, BotVersion
from agon.matches.models import Match, MatchSeat


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


def match_seats(matches: Iterable[Match]) -> dict[int, list[SeatShown]]:
    """The seats of these matches (a page of them), in seat order, by match id.

    Plain rows in three small queries on primary keys and the seats' match index: the
    seats, their versions, and the versions' bots with their owners' names. Django's
    prefetching built a model instance per seat, version, bot and owner, and (5.2)
    compiled an expression per key of each forward prefetch: 12 ms of a page's 20 ms of
    Python on 50 matches. Joined in one query, the planner hashes every version for a
    page's few hundred seats. Only the shown columns are read (not a seat's log: up to
    256 KiB of a bot's stderr)."""
    ids = [match.id for match in matches]
    if not ids:
        return {}
    seats = list(
        MatchSeat.objects.filter(match_id__in=ids)
        .order_by("match_id", "seat")
        .values_list("match_id", "seat", "version_id", "builtin", "rank", "score", "fault")
    )
    version_ids = {seat[2] for seat in seats if seat[2] is not None}
    versions = {
        version_id: (bot_id, number)
        for version_id, bot_id, number in BotVersion.objects.filter(id__in=version_ids)
        .order_by()
        .values_list("id", "bot_id", "number")
    }
    bots = {
        bot_id: f"{owner}/{name}"
        for bot_id, name, owner in Bot.objects.filter(
            id__in={bot_id for bot_id, _ in versions.values()}
        )
        .order_by()
        .values_list("id", "name", "owner__username")
    }
    shown: dict[int, list[SeatShown]] = {match_id: [] for match_id in ids}
    for match_id, seat, version_id, builtin, rank, score, fault in seats:
        if version_id is None:
            bot_id = number = None
            label = f"builtin:{builtin}"
        else:
            bot_id, number = versions[version_id]
            label = f"{bots[bot_id]}@v{number}"
        shown[match_id].append(SeatShown(seat, bot_id, number, label, rank, score, fault))
    return shown


LISTED = ("kind", "ladder_id", "game", "players", "status", "created", "finished")
"""The columns of a match in lists, besides its id."""


def match_list(
    *,
    bot_id: int | None = None,
    ladder_id: int | None = None,
    status: str | None = None,
    game: str | None = None,
) -> QuerySet[Match]:
    """Matches, newest first, with the columns a list shows (not the JSON of scores, ranks,
    faults and options: four documents to decode per match); their seats from
    `match_seats`, for a page of them."""
    matches = Match.objects.only(*LISTED)
    if bot_id is not None:
        # A subquery rather than a join: no duplicate rows, and it starts from the
        # bot's few versions through the `seat_version_match` index.
        matches = matches.filter(
            id__in=MatchSeat.objects.filter(version__bot_id=bot_id).values("match_id")
        )
    if ladder_id is not None:
        matches = matches.filter(ladder_id=ladder_id)
    if status is not None:
        matches = matches.filter(status=status)
    if game is not None:
        matches = matches.filter(game=game)
    return matches.order_by("-id")


def match_get(*, match_id: int) -> Match | None:
    """One match; its seats from `match_seats`."""
    return Match.objects.filter(id=match_id).first()


def match_seat(*, match_id: int, seat: int) -> MatchSeat | None:
    """One seat of a match, with its bot and the bot's owner (for the owner-only log)."""
    return (
        MatchSeat.objects.select_related("match", "version__bot")
        .filter(match_id=match_id, seat=seat)
        .first()
    )
