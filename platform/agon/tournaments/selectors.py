"""Tournament reads for the API: the list a user may see, one tournament (entrants,
standings live or final, progress), and its games, paged apart since a public tournament
may have 20,000 of them."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet, Sum

from agon.matches.models import Match
from agon.tournaments.events import NOT_A_BYE, event_for, game_lines, results_of_lines
from agon.tournaments.models import Entry, Tournament, TournamentGame
from agon.tournaments.scheduling import standings_rows
from agon.tournaments.services import tournament_visible, tournaments_visible_to


def tournament_list(*, user: User | None, status: str | None = None) -> QuerySet[Tournament]:
    """The tournaments `user` may see, newest first: the public ones, their own and
    those their bots are entered in."""
    tournaments = (
        Tournament.objects.filter(tournaments_visible_to(user))
        .select_related("owner")
        .order_by("-id")
    )
    if status is not None:
        tournaments = tournaments.filter(status=status)
    return tournaments


def tournament_get(
    *, tournament_id: int, user: User | None, standings: bool = True
) -> Tournament | None:
    """The tournament if `user` may see it (anyone a public one; a private one its
    owner, staff and the owners of its entered bots). Without `standings`, its final
    standings (a JSON object per entrant) are read only if asked for: the API's pages are
    mostly served kept (agon.tournaments.kept), and decoding 256 entrants' took a third
    of such a request."""
    tournaments = Tournament.objects.select_related("owner")
    if not standings:
        tournaments = tournaments.defer("standings")
    tournament = tournaments.filter(id=tournament_id).first()
    if tournament is None or not tournament_visible(tournament, user):
        return None
    return tournament


GAME_STATUSES = ("bye", "void", "forfeit", "queued", "running", "finished", "failed")
"""A game's status: a bye, void (its matches kept failing: a tie), forfeit (a bot in it
withdrew), or its match's."""


@dataclass(frozen=True, slots=True)
class EntryRow:
    """An entered bot as the API shows it: a row of plain values, not a model (a public
    tournament has up to 65,535 entrants, and models and serializers cost a few ms a
    hundred)."""

    id: int
    bot: int
    bot_name: str
    owner: str
    version: int | None
    """The number of the version that plays, frozen when the entry closed."""
    entrant: int | None
    created: datetime
    withdrawn: datetime | None

    @property
    def label(self) -> str:
        """`owner/bot@vN` (`BotVersion.label`), empty before the entry closed."""
        return f"{self.owner}/{self.bot_name}@v{self.version}" if self.version is not None else ""


ENTRY_COLUMNS = (
    "id",
    "bot_id",
    "bot__name",
    "bot__owner__username",
    "version__number",
    "number",
    "created",
    "withdrawn",
)


def entry_rows(tournament_id: int, *, numbers: Collection[int] | None = None) -> list[EntryRow]:
    """The entered bots (at most the tournament's `max_entrants`), or only the entrants
    numbered `numbers`: in seed order once the entry closed, the ones dropped then last."""
    entries = Entry.objects.filter(tournament_id=tournament_id)
    if numbers is not None:
        entries = entries.filter(number__in=numbers)
    rows = [EntryRow(*row) for row in entries.order_by("number", "id").values_list(*ENTRY_COLUMNS)]
    return [row for row in rows if row.entrant is not None] + [
        row for row in rows if row.entrant is None
    ]


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game as the API lists it, from plain rows."""

    id: int
    round: int
    tie: str
    index: int
    bots: list[int]
    """Entrant numbers in seat order; one for a bye."""
    ranks: list[int] | None
    match: int | None
    match_status: str | None
    replays: int
    void: bool
    forfeited: bool
    attempts: list[int] = field(default_factory=list)
    """The failed matches a replay replaced, oldest first (`with_attempts`)."""

    @property
    def status(self) -> str:
        """bye, void, forfeit, or its match's status (queued, running, finished,
        failed)."""
        if len(self.bots) == 1:
            return "bye"
        if self.void:
            return "void"
        if self.forfeited:
            return "forfeit"
        return self.match_status or "queued"

    @property
    def replay_shown(self) -> bool:
        """Whether its match finished it: its replay is worth a look."""
        return self.match is not None and self.match_status == "finished" and not self.void


GAME_COLUMNS = (
    "id",
    "round",
    "tie",
    "index",
    "bots",
    "ranks",
    "match_id",
    "match__status",
    "replays",
    "void",
    "forfeited",
)


@dataclass(frozen=True)
class Progress:
    games: int
    """Games stored so far (byes left out): the format pairs a round once the one before
    it is over, so this grows as the tournament goes."""
    decided: int
    round: int
    """The latest round with a game queued (0 before the first)."""
    rounds: int | None
    """The rounds there will be, when the format fixes them (a Swiss, a round robin)."""


@dataclass(frozen=True)
class TournamentShown:
    tournament: Tournament
    entrants: list[EntryRow]
    """Entered bots: in seed order once the entry closed (dropped ones last)."""
    standings: list[dict[str, object]] = field(default_factory=list)
    progress: Progress = Progress(0, 0, 0, None)


LIVE_CACHE_SECONDS = 60
"""How long what a running tournament shows is kept in the shared cache: it is keyed by
`live_version`, so this bounds only how late an edit the key does not see shows."""


def live_version(tournament: Tournament) -> str:
    """Changes whenever what a running tournament shows would: the status, the entries (one
    entered, dropped or withdrawn), a game queued, given its match, started, decided or
    replayed (agon.tournaments.kept). Two small queries, where the standings of a public
    tournament's 20,000 games take 0.7 s."""
    games = TournamentGame.objects.filter(tournament=tournament).aggregate(
        rows=Count("id"),
        matched=Count("match"),
        decided=Count("id", filter=Q(ranks__isnull=False)),
        running=Count("id", filter=Q(ranks__isnull=True, match__status=Match.Status.RUNNING)),
        replays=Sum("replays"),
    )
    entries = Entry.objects.filter(tournament=tournament)
    if tournament.status != Tournament.Status.ENTRY:
        entries = entries.filter(number__isnull=False)  # the entrants, once it started
    # A new entry has the highest id: the count and the highest id change with any change
    # of the entries, one entering as another leaves too.
    entered = entries.aggregate(
        entries=Count("id"),
        newest=Max("id"),
        withdrawn=Count("id", filter=Q(withdrawn__isnull=False)),
    )
    counts = (games["rows"], games["matched"], games["decided"], games["running"])
    parts = (
        tournament.status,
        entered["entries"],
        entered["newest"],
        entered["withdrawn"],
        *counts,
        games["replays"] or 0,
    )
    return "-".join(str(part) for part in parts)


def live_standings(tournament: Tournament, entrants: Sequence[EntryRow]) -> list[dict[str, object]]:
    """A running tournament's standings as they stand, computed once per state of the
    tournament (`live_version`) for every caller, in the shared cache. They read each
    decided game's result, not its match."""
    key = f"agon:tournament-standings:{tournament.id}:{live_version(tournament)}"
    kept = cache.get(key)
    if isinstance(kept, list):
        return kept
    decided = results_of_lines(game_lines(tournament.id, decided=True))
    live = event_for(tournament, len(entrants)).standings(decided)
    standings = standings_rows(live, [(entrant.bot, entrant.label) for entrant in entrants])
    cache.set(key, standings, LIVE_CACHE_SECONDS)
    return standings


def tournament_shown(tournament: Tournament) -> TournamentShown:
    """A tournament without its games (those are paged: `tournament_games`): entrants,
    standings and progress, in a fixed number of queries whatever its size. The live
    standings come from the shared cache (`live_standings`)."""
    entries = entry_rows(tournament.id)
    entrants = [entry for entry in entries if entry.entrant is not None]
    standings = tournament.standings
    if tournament.status == Tournament.Status.RUNNING and entrants:
        standings = live_standings(tournament, entrants)
    counts = tournament.games.aggregate(
        games=Count("id", filter=NOT_A_BYE),
        decided=Count("id", filter=NOT_A_BYE & Q(ranks__isnull=False)),
        round=Max("round"),
    )
    progress = Progress(
        games=counts["games"],
        decided=counts["decided"],
        round=counts["round"] or 0,
        rounds=_rounds_known(tournament, len(entrants)),
    )
    return TournamentShown(tournament, entries, standings, progress)


def tournament_games(tournament: Tournament, *, round: int | None = None) -> QuerySet[Any]:
    """The tournament's games in order (round, tie, index) as tuples of GAME_COLUMNS, of
    one round if given: page it, then make the page's `GameRow`s with `game_rows`."""
    games = tournament.games.order_by("round", "tie", "index", "id")
    if round is not None:
        games = games.filter(round=round)
    return games.values_list(*GAME_COLUMNS)


def game_rows(page: Sequence[tuple[Any, ...]]) -> list[GameRow]:
    """A page of `tournament_games` as rows, each with its earlier failed attempts (one
    query for the page)."""
    games = [GameRow(*values) for values in page]
    attempts: dict[int, list[int]] = {}
    through = TournamentGame.attempts.through.objects.filter(
        tournamentgame_id__in=[game.id for game in games]
    )
    for game_id, match_id in through.order_by("match_id").values_list(
        "tournamentgame_id", "match_id"
    ):
        attempts.setdefault(game_id, []).append(match_id)
    for game in games:
        game.attempts.extend(attempts.get(game.id, ()))
    return games


def _rounds_known(tournament: Tournament, entrants: int) -> int | None:
    if tournament.rounds is not None:
        return tournament.rounds
    try:
        return event_for(tournament, entrants).round_count()
    except ValueError:  # too few entrants: it never started
        return None


def bot_entries(*, bot_id: int, viewer: User | None) -> QuerySet[Entry]:
    """The bot's entries in the tournaments `viewer` may see (its owner: every one),
    newest tournament first, with their tournaments."""
    return (
        Entry.objects.filter(bot_id=bot_id)
        .filter(tournament__in=Tournament.objects.filter(tournaments_visible_to(viewer)))
        .select_related("tournament__owner", "bot__owner", "version__bot__owner")
        .order_by("-tournament_id")
    )
