"""Competition reads: the list by phase, one competition's countdown, its standings (the
live ladder, the final's live standings, then the archive), its archived games and a
bot's history of competitions."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, QuerySet

from agon.competitions.models import (
    ArchivedGame,
    ArchivedStanding,
    Competition,
    CompetitionEntry,
)
from agon.ladders.models import LEADERBOARD_ORDER, Rating
from agon.tournaments.models import Entry
from agon.tournaments.selectors import tournament_shown

Phase = Competition.Phase
RUNNING = (Phase.OPEN, Phase.FROZEN, Phase.FINAL)
PAST = (Phase.FINISHED, Phase.CANCELLED)
LEADERBOARD_LIMIT = 100
"""The most rows the live leaderboard shows and the standings give (the ladder's own page
pages through all of it)."""


def competition_list(*, phase: str | None = None) -> QuerySet[Competition]:
    """Every competition, newest first, with its number of entrants (`entrants`)."""
    competitions = Competition.objects.annotate(entrants=Count("entries")).order_by("-opens", "-id")
    return competitions if phase is None else competitions.filter(phase=phase)


def competition_get(*, competition_id: int) -> Competition | None:
    return Competition.objects.select_related("final").filter(id=competition_id).first()


@dataclass(frozen=True)
class Group:
    slug: str
    title: str
    empty: str
    rows: list[Competition]


def competition_groups() -> list[Group]:
    """Upcoming (soonest first), running (the one freezing soonest first), past (the
    latest first)."""
    every = list(competition_list())
    upcoming = sorted(
        (c for c in every if c.phase == Phase.UPCOMING), key=lambda c: (c.opens, c.id)
    )
    running = sorted((c for c in every if c.phase in RUNNING), key=lambda c: (c.freezes, c.id))
    past = [c for c in every if c.phase in PAST]
    return [
        Group("upcoming", "Upcoming", "No competition is announced yet.", upcoming),
        Group("running", "Running", "No competition is running now.", running),
        Group("past", "Past", "No competition has finished yet.", past),
    ]


@dataclass(frozen=True)
class NextPhase:
    what: str
    """What happens then ("submissions freeze")."""
    at: datetime


def next_phase(competition: Competition) -> NextPhase | None:
    """What the countdown counts down to: the next phase's date (none during the final,
    whose end is its last game's)."""
    upcoming = {
        Phase.UPCOMING: ("opens", competition.opens),
        Phase.OPEN: ("submissions freeze", competition.freezes),
        Phase.FROZEN: ("the final starts", competition.final_starts),
    }.get(Phase(competition.phase))
    return None if upcoming is None else NextPhase(*upcoming)


@dataclass(frozen=True)
class StandingRow:
    rank: int | None
    """The place on the ladder (open, frozen), in the final (final, finished); none for
    an entrant who did not reach the final."""
    bot: int
    bot_name: str
    owner: str
    version: int | None
    digest: str
    """The SHA-256 of the frozen version's archive (empty before the freeze)."""
    rating: str
    games: int | None
    ladder_place: int | None
    points: float | None
    finalist: bool


@dataclass(frozen=True)
class Standings:
    stage: str
    """"ladder" (the live leaderboard), "final" (the final's live standings) or
    "archive" (copied when the final ended)."""
    rows: list[StandingRow] = field(default_factory=list)


def competition_standings(competition: Competition) -> Standings:
    if competition.phase == Phase.FINISHED:
        return Standings("archive", _archived(competition))
    if competition.phase == Phase.FINAL and competition.final is not None:
        return Standings("final", _final_live(competition))
    if competition.phase == Phase.CANCELLED and competition.final is None:
        return Standings("ladder", _ladder_frozen(competition))
    return Standings("ladder", ladder_rows(competition))


def ladder_rows(
    competition: Competition, players: int | None = None, limit: int = LEADERBOARD_LIMIT
) -> list[StandingRow]:
    """The live leaderboard of one of its ladders (the final's by default)."""
    ladder = competition.ladders.filter(players=players or competition.final_players).first()
    if ladder is None:
        return []
    frozen = dict(
        CompetitionEntry.objects.filter(competition=competition).values_list("bot_id", "version")
    )
    ratings = (
        Rating.objects.filter(ladder=ladder, active=True)
        .select_related("bot__owner", "version")
        .order_by(*LEADERBOARD_ORDER)[:limit]
    )
    return [
        StandingRow(
            rank=place,
            bot=rating.bot_id,
            bot_name=rating.bot.name,
            owner=rating.bot.owner.username,
            version=rating.version.number,
            digest=rating.version.sha256 if frozen.get(rating.bot_id) else "",
            rating=rating.shown,
            games=rating.games,
            ladder_place=place,
            points=None,
            finalist=False,
        )
        for place, rating in enumerate(ratings, start=1)
    ]


def _ladder_frozen(competition: Competition) -> list[StandingRow]:
    """A competition cancelled at its final: the ladder as it stood then."""
    entries = competition.entries.select_related("bot__owner", "version").exclude(ladder_place=None)
    return [_entry_row(entry, entry.ladder_place, None) for entry in entries]


def _entry_row(entry: CompetitionEntry, rank: int | None, points: float | None) -> StandingRow:
    version = entry.version
    return StandingRow(
        rank=rank,
        bot=entry.bot_id,
        bot_name=entry.bot.name,
        owner=entry.bot.owner.username,
        version=version.number if version else None,
        digest=version.sha256 if version else "",
        rating=entry.ladder_rating,
        games=None,
        ladder_place=entry.ladder_place,
        points=points,
        finalist=entry.finalist,
    )


def _final_live(competition: Competition) -> list[StandingRow]:
    assert competition.final is not None  # noqa: S101 - the caller checked
    shown = tournament_shown(competition.final)
    numbers = dict(Entry.objects.filter(tournament=competition.final).values_list("number", "bot"))
    entries = {
        entry.bot_id: entry for entry in competition.entries.select_related("bot__owner", "version")
    }
    rows = []
    for standing in shown.standings:
        bot_id = numbers.get(_int(standing.get("entrant")))
        if bot_id in entries:
            points = standing.get("points")
            rows.append(
                _entry_row(
                    entries[bot_id],
                    _int(standing.get("rank")),
                    float(str(points)) if points is not None else None,
                )
            )
    return rows


def _int(value: object) -> int:
    return int(str(value))


def _archived(competition: Competition) -> list[StandingRow]:
    return [
        StandingRow(
            rank=row.rank,
            bot=row.bot_id,
            bot_name=row.bot_name,
            owner=row.owner_name,
            version=row.version_number,
            digest=row.version_digest,
            rating=row.ladder_rating,
            games=None,
            ladder_place=row.ladder_place,
            points=row.points,
            finalist=row.rank is not None,
        )
        for row in ArchivedStanding.objects.filter(competition=competition)
    ]


def archived_games(competition: Competition) -> QuerySet[ArchivedGame]:
    return ArchivedGame.objects.filter(competition=competition).order_by("round", "tie", "index")


@dataclass(frozen=True)
class HistoryRow:
    competition: Competition
    ladder_place: int | None
    rank: int | None
    finalist: bool
    version: int | None


def bot_competitions(*, bot_id: int) -> list[HistoryRow]:
    """The competitions a bot was entered in, the latest first: its place on the ladder
    and in the final (from the archive once it is over)."""
    entries = (
        CompetitionEntry.objects.filter(bot_id=bot_id)
        .select_related("competition", "version")
        .order_by("-competition__opens", "-id")
    )
    archived = dict(
        ArchivedStanding.objects.filter(bot_id=bot_id).values_list("competition_id", "rank")
    )
    entrants = dict(
        CompetitionEntry.objects.filter(competition__entries__bot_id=bot_id)
        .values_list("competition_id")
        .annotate(count=Count("id"))
        .order_by()
    )
    for entry in entries:
        # As the list annotates it (`competition_list`).
        setattr(entry.competition, "entrants", entrants.get(entry.competition_id, 0))  # noqa: B010
    return [
        HistoryRow(
            competition=entry.competition,
            ladder_place=entry.ladder_place,
            rank=archived.get(entry.competition_id),
            finalist=entry.finalist,
            version=entry.version.number if entry.version else None,
        )
        for entry in entries
    ]
