"""Match reads: lists with filters, one match with its seats, a seat's log."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

from agon.bots.models import Bot, BotVersion
from agon.matches.models import Match, MatchSeat


def _seats() -> list[Prefetch[Any]]:
    """The seats with what the API shows of them, and the bot, owner and version behind
    each. Three small queries on primary keys rather than one join: joined, the planner
    hashes every version for a page's few hundred seats. Only the shown columns are read:
    not a seat's log (up to 256 KiB of a bot's stderr) or an owner's password hash."""
    return [
        Prefetch(
            "seats",
            queryset=MatchSeat.objects.only(
                "match_id", "seat", "version_id", "builtin", "rank", "score", "fault"
            ).order_by("seat"),
        ),
        Prefetch("seats__version", queryset=BotVersion.objects.only("bot_id", "number")),
        Prefetch(
            "seats__version__bot",
            queryset=Bot.objects.select_related("owner").only("name", "owner__username"),
        ),
    ]


def match_list(
    *,
    bot_id: int | None = None,
    ladder_id: int | None = None,
    status: str | None = None,
    game: str | None = None,
) -> QuerySet[Match]:
    """Matches, newest first, with their seats and the bots in them."""
    matches = Match.objects.prefetch_related(*_seats())
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
    return Match.objects.prefetch_related(*_seats()).filter(id=match_id).first()


def match_seat(*, match_id: int, seat: int) -> MatchSeat | None:
    """One seat of a match, with its bot and the bot's owner (for the owner-only log)."""
    return (
        MatchSeat.objects.select_related("match", "version__bot")
        .filter(match_id=match_id, seat=seat)
        .first()
    )
