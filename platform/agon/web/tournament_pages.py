"""What the tournament pages show, read from the tournament's rows and its pure format.

A tournament's standings, cross-table, bracket and progress are computed from the games
decided so far (`agon.tournaments.events.results_of`), so a running tournament shows them
as they stand and a finished one its final state. Everything is read in a few queries:
the entries with their bots and owners, the games' results (not their matches), and the
games of one round only, with their matches: a public tournament may play 20,000 games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db.models import Count, Prefetch, Q
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from agon.matches.models import Match
from agon.tournaments.events import (
    NOT_A_BYE,
    GameLine,
    event_for,
    game_lines,
    minimum_entrants,
    results_of_lines,
)
from agon.tournaments.models import Entry, Tournament, TournamentGame
from agon.tournaments.selectors import LIVE_CACHE_SECONDS, live_version, tournament_list
from agon.web.bracket import bracket_svg, points_text, stage_titles
from agon.web.cross_table import CrossRow, cross_table
from competition.formats.core import Result, game_points
from competition.formats.protocol import (
    Format,
    GauntletTable,
    Picture,
    bracket_of,
    gauntlet_of,
)
from competition.formats.standings import Standing

FINISHED_LISTED = 50
CROSS_TABLE_LIMIT = 24
"""Past this many entrants a cross-table is wider than it is useful."""
BRACKET_LIMIT = 64
TIES_PER_PAGE = 50
"""The tables of a round listed at a time (a round of a big Swiss has over a hundred)."""

TIEBREAK_LABELS = {
    "buchholz_cut1": ("BH-C1", "Buchholz cut 1 (the opponents' points, the lowest round left out)"),
    "buchholz": ("BH", "Buchholz (the opponents' points)"),
    "sonneborn_berger": ("SB", "Sonneborn-Berger (each opponent's points times the score on it)"),
    "direct_encounter": ("DE", "direct encounter (points against the bots level on points)"),
    "wins": ("Wins", "games won outright"),
}


# --- the list ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Listed:
    tournament: Tournament
    entrants: int
    games: int
    decided: int

    @property
    def in_play(self) -> int:
        return self.games - self.decided


@dataclass(frozen=True)
class Group:
    title: str
    slug: str
    rows: list[Listed]
    empty: str


def tournament_groups(user: User | None) -> list[Group]:
    """The tournaments a user may see: running, open for entry, and the latest finished."""
    shown = tournament_list(user=user)
    running = list(shown.filter(status=Tournament.Status.RUNNING).order_by("-started", "-id"))
    upcoming = list(shown.filter(status=Tournament.Status.ENTRY).order_by("entry_closes", "id"))
    over = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    finished = list(shown.filter(status__in=over).order_by("-finished", "-id")[:FINISHED_LISTED])
    counts = _counts([t.id for t in (*running, *upcoming, *finished)])

    def listed(tournaments: list[Tournament]) -> list[Listed]:
        return [Listed(t, *counts.get(t.id, (0, 0, 0))) for t in tournaments]

    return [
        Group("Running", "running", listed(running), "No tournament is being played."),
        Group("Open for entry", "upcoming", listed(upcoming), "No tournament takes entries."),
        Group("Finished", "finished", listed(finished), "No tournament has finished yet."),
    ]


def _counts(ids: Sequence[int]) -> dict[int, tuple[int, int, int]]:
    """Per tournament: entrants, games (byes left out) and games decided."""
    entrants = dict(
        Entry.objects.filter(tournament_id__in=ids)
        .values_list("tournament_id")
        .annotate(count=Count("id"))
        .values_list("tournament_id", "count")
    )
    games = {
        row["tournament_id"]: (row["total"], row["decided"])
        for row in TournamentGame.objects.filter(tournament_id__in=ids)
        .filter(NOT_A_BYE)
        .values("tournament_id")
        .annotate(total=Count("id"), decided=Count("id", filter=Q(ranks__isnull=False)))
    }
    return {tid: (entrants.get(tid, 0), *games.get(tid, (0, 0))) for tid in ids}


# --- one tournament: its live part, cached by what it shows -----------------------------------


def live_part(tournament: Tournament, shown: RoundChoice | None = None) -> SafeString:
    """The part of a tournament's page that moves while it runs (all of it but the title),
    rendered once for everyone per state of the tournament and round shown, in the shared
    cache."""
    shown = shown or RoundChoice()
    version = live_version(tournament)
    key = f"web:tournament-live:{tournament.id}:{version}:{shown.round}:{shown.page}"
    cached = cache.get(key)
    if isinstance(cached, str):
        return SafeString(cached)
    page = tournament_page(tournament, shown)
    context = {"page": page, "version": version, "choice": shown}
    rendered = render_to_string("web/_tournament_live.html", context)
    cache.set(key, rendered, LIVE_CACHE_SECONDS)
    return SafeString(rendered)  # our own template's output, escaped as it was rendered


# --- one tournament: what it shows ------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    number: int | None
    bot_id: int
    label: str
    """owner/name, as the ladders show a bot."""
    version: str
    """The frozen version's number ("v3"), empty while the entry is open."""
    withdrawn: bool = False
    """It left while the tournament ran: it forfeits what it had left to play."""


@dataclass(frozen=True)
class StandingRow:
    standing: Standing
    entrant: Entrant
    points: str
    tiebreaks: list[tuple[str, str, str]]
    """(short name, long name, value) of each tie-break, in order: a desktop shows them
    in columns, a phone under the bot's name (the columns would be wider than it)."""


@dataclass(frozen=True)
class Seat:
    entrant: Entrant
    rank: int | None


@dataclass(frozen=True)
class GameRow:
    index: int
    seats: list[Seat]
    match: Match | None
    """None for a bye."""
    void: bool
    replays: int
    attempts: list[Match] = field(default_factory=list)
    """The failed matches its replays replaced, oldest first."""
    forfeited: bool = False
    """Decided unplayed: a bot in it withdrew (agon.tournaments.withdrawal)."""


@dataclass(frozen=True)
class TieGames:
    name: str
    anchor: str
    entrants: list[tuple[Entrant, str]]
    """The bots at the table with their points in it so far."""
    games: list[GameRow]

    @property
    def bye(self) -> bool:
        return all(len(game.seats) == 1 for game in self.games)


@dataclass(frozen=True)
class RoundChoice:
    """The round whose games the page shows (None: the one being played, else the last)
    and the page of its tables."""

    round: int | None = None
    page: int = 1


@dataclass(frozen=True)
class RoundSummary:
    number: int
    title: str
    games: int
    done: bool


@dataclass(frozen=True)
class RoundGames:
    number: int
    title: str
    ties: list[TieGames]
    done: bool
    page: int = 1
    pages: int = 1
    """The round's tables are shown TIES_PER_PAGE at a time."""


@dataclass(frozen=True)
class Progress:
    decided: int
    total: int | None
    unit: str
    """games, or ties for a knockout (whose games depend on tie-breaks)."""
    playing: int
    queued: int

    @property
    def percent(self) -> int | None:
        if not self.total:
            return None
        return round(100 * self.decided / self.total)


@dataclass(frozen=True)
class GauntletRow:
    entrant: Entrant | None
    """None for the field as a whole."""
    pairs: int
    elo: str
    interval: str


@dataclass
class TournamentPage:
    tournament: Tournament
    entrants: list[Entrant]
    standings: list[StandingRow] = field(default_factory=list)
    tiebreaks: list[tuple[str, str]] = field(default_factory=list)
    cross_table: list[tuple[Entrant, CrossRow]] | None = None
    bracket: SafeString | None = None
    gauntlet: list[GauntletRow] | None = None
    rounds: list[RoundSummary] = field(default_factory=list)
    """Every round, for the links to their games."""
    round: RoundGames | None = None
    """The games of one round, the only ones the page lists: a public tournament may
    play 20,000 games."""
    progress: Progress | None = None


def tournament_page(tournament: Tournament, shown: RoundChoice | None = None) -> TournamentPage:
    """The page's content in a fixed number of queries: the games' results are read
    without their matches; only the round shown reads its matches (a page of tables)."""
    # Started: its entrants are frozen. One cancelled during its entry never started.
    running = tournament.started is not None
    entries = Entry.objects.filter(tournament=tournament).select_related("bot__owner", "version")
    if running:
        entries = entries.filter(number__isnull=False).order_by("number")
    else:
        entries = entries.order_by("created", "id")
    entrants = [
        Entrant(
            entry.number,
            entry.bot_id,
            f"{entry.bot.owner.username}/{entry.bot.name}",
            f"v{entry.version.number}" if entry.version is not None else "",
            entry.withdrawn is not None,
        )
        for entry in entries
    ]
    page = TournamentPage(tournament, entrants)
    if not running or len(entrants) < minimum_entrants(tournament):
        return page
    event = event_for(tournament, len(entrants))
    rows = game_lines(tournament.id)
    results = results_of_lines(rows)
    standings = event.standings(results)
    names = [entrant.label for entrant in entrants]
    page.tiebreaks = [
        TIEBREAK_LABELS.get(n, (n, n)) for n in (standings[0].tiebreaks if standings else {})
    ]
    page.standings = [
        StandingRow(
            standing,
            entrants[standing.bot],
            points_text(standing.points),
            [
                (short, long, points_text(value))
                for (short, long), value in zip(
                    page.tiebreaks, standing.tiebreaks.values(), strict=True
                )
            ],
        )
        for standing in standings
    ]
    # What the format draws beside its standings (`Format.PICTURE`).
    if event.PICTURE is Picture.CROSS_TABLE and len(entrants) <= CROSS_TABLE_LIMIT:
        page.cross_table = [
            (entrants[row.standing.bot], row) for row in cross_table(standings, results)
        ]
    bracketed = bracket_of(event)
    if bracketed is not None and len(entrants) <= BRACKET_LIMIT:
        links = {row.tie: f"?round={row.round}#tie-{row.tie}" for row in rows}
        page.bracket = bracket_svg(bracketed, results, names, links=links)
    gauntlet = gauntlet_of(event)
    if gauntlet is not None:
        page.gauntlet = _gauntlet_rows(gauntlet, results, entrants)
    titles = _titles(event, results, entrants)
    page.rounds = _round_summaries(rows, titles)
    if page.rounds:
        number = _round_shown(page.rounds, (shown or RoundChoice()).round)
        page.round = _round_games(
            tournament, number, titles, entrants, (shown or RoundChoice()).page
        )
    page.progress = _progress(tournament, event, rows, results)
    return page


def _titles(
    event: Format, results: Sequence[Result], entrants: Sequence[Entrant]
) -> dict[int, str]:
    """The rounds' titles where they are not "Round N": a bracket's stages, a gauntlet's
    opponents."""
    bracketed = bracket_of(event)
    if bracketed is not None:
        return stage_titles(bracketed, results)
    if event.PICTURE is Picture.GAUNTLET:
        return {n: f"Against {entrants[n].label}" for n in range(1, len(entrants))}
    return {}


def _round_summaries(rows: Sequence[GameLine], titles: dict[int, str]) -> list[RoundSummary]:
    games: dict[int, int] = defaultdict(int)
    done: dict[int, bool] = defaultdict(lambda: True)
    for row in rows:
        games[row.round] += 1
        done[row.round] = done[row.round] and row.ranks is not None
    return [
        RoundSummary(number, titles.get(number, f"Round {number}"), games[number], done[number])
        for number in sorted(games)
    ]


def _round_shown(rounds: Sequence[RoundSummary], asked: int | None) -> int:
    """The round asked for if there is one, else the first being played, else the last."""
    numbers = [summary.number for summary in rounds]
    if asked in numbers:
        return asked
    return next((summary.number for summary in rounds if not summary.done), numbers[-1])


def _round_games(
    tournament: Tournament,
    number: int,
    titles: dict[int, str],
    entrants: Sequence[Entrant],
    page: int,
) -> RoundGames:
    """One round's tables, TIES_PER_PAGE of them from `page`, with their matches and
    their earlier failed attempts."""
    rows = (
        TournamentGame.objects.filter(tournament=tournament, round=number)
        .select_related("match")
        .prefetch_related(Prefetch("attempts", queryset=Match.objects.order_by("id")))
        .order_by("id")
    )
    by_tie: dict[str, list[TournamentGame]] = defaultdict(list)
    for row in rows:
        by_tie[row.tie].append(row)
    done = all(row.ranks is not None for games in by_tie.values() for row in games)
    pages = max(1, -(-len(by_tie) // TIES_PER_PAGE))
    page = min(max(page, 1), pages)
    names = list(by_tie)[(page - 1) * TIES_PER_PAGE : page * TIES_PER_PAGE]
    ties = [_tie(name, by_tie[name], entrants) for name in names]
    title = titles.get(number, f"Round {number}")
    return RoundGames(number, title, ties, done, page, pages)


def _tie(name: str, rows: list[TournamentGame], entrants: Sequence[Entrant]) -> TieGames:
    rows = sorted(rows, key=lambda row: row.index)
    points: dict[int, float] = dict.fromkeys(sorted(rows[0].bots), 0.0)
    for row in rows:
        if row.ranks is not None:
            for bot, scored in zip(row.bots, game_points(row.ranks), strict=True):
                points[bot] = points.get(bot, 0.0) + scored
    games = [
        GameRow(
            row.index,
            [
                Seat(entrants[bot], row.ranks[seat] if row.ranks is not None else None)
                for seat, bot in enumerate(row.bots)
            ],
            row.match,
            row.void,
            row.replays,
            list(row.attempts.all()),
            row.forfeited,
        )
        for row in rows
    ]
    table = [(entrants[bot], points_text(scored)) for bot, scored in points.items()]
    return TieGames(name, f"tie-{name}", table, games)


def _progress(
    tournament: Tournament, event: Format, rows: Sequence[GameLine], results: Sequence[Result]
) -> Progress:
    in_play = Match.objects.filter(
        tournament_game__tournament=tournament, tournament_game__ranks__isnull=True
    ).aggregate(
        playing=Count("id", filter=Q(status=Match.Status.RUNNING)),
        queued=Count("id", filter=Q(status=Match.Status.QUEUED)),
    )
    waiting = sum(row.match_id is None and row.ranks is None for row in rows)
    playing, queued = in_play["playing"], in_play["queued"] + waiting
    done = event.progress(results)
    return Progress(done.decided, done.total, done.unit, playing, queued)


def _gauntlet_rows(
    event: GauntletTable, results: Sequence[Result], entrants: Sequence[Entrant]
) -> list[GauntletRow]:
    pentanomials = event.pentanomials(results)
    rows = [
        GauntletRow(
            entrants[opponent],
            sum(pentanomials[opponent]),
            f"{estimate.elo:+.0f}",
            f"{estimate.low:+.0f} to {estimate.high:+.0f}",
        )
        for opponent, estimate in event.elo_by_opponent(results).items()
    ]
    field_estimate = event.performance(results)
    rows.append(
        GauntletRow(
            None,
            sum(sum(counts) for counts in pentanomials.values()),
            f"{field_estimate.elo:+.0f}",
            f"{field_estimate.low:+.0f} to {field_estimate.high:+.0f}",
        )
    )
    return rows
