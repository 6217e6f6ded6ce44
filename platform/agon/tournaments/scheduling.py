"""The life of a tournament after its entry: freezing the entrants, pairing each round,
concluding each game, and the final standings.

Beat runs `tournaments_advance` (AGON_TOURNAMENT_SECONDS): it closes the entries whose
window is over and moves every running tournament on. A tournament's format is asked
for its next games only when a game was decided since it was last asked
(`Tournament.results_seen`): a beat with nothing new costs one count a tournament. The
asking (pairing a Swiss round, say) reads the results and runs outside any lock; the
games it returns are then stored as rows under the tournament's row lock, after a check
that nobody stored them meanwhile (the unique slot of a game, round, tie and index,
backs that up). The games of a round are paired only from the results before it, so
nothing depends on the order in which matches finish.

A stored game is played by a match. A public tournament's games (staff's) get theirs at
once, on the tournament queue; a private tournament's games wait as rows until the
background share of the workers has room (agon.matches.background, which calls
`tournament_dispatch`), so a user's 255-bot Swiss neither stops the ladders nor other
users' work.

A game's match ends through `tournament_game_conclude`, the kind's outcome, inside the
transaction that ends the match (so exactly once): a finished match gives the game its
ranks (a bot's fault ranks it last: the referee's rule); a failed one (the platform's
fault: a sandbox error, a lost worker) is played again by a new match on the same seats
and seed, up to AGON_TOURNAMENT_MAX_REPLAYS times (the failed ones stay linked to the
game as its attempts), after which the game counts as a tie of its seats. Ratings never
move. A match ending after its tournament was cancelled changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from agon.bots.models import BotVersion
from agon.celery import app as celery_app
from agon.ladders.models import LEADERBOARD_ORDER, Rating
from agon.matches.background import Waiting, background_dispatch
from agon.matches.models import Match
from agon.matches.services import match_create
from agon.tournaments.events import (
    event_for,
    game_lines,
    game_of,
    game_row,
    minimum_entrants,
    results_of_lines,
    slot,
)
from agon.tournaments.models import Entry, Tournament, TournamentGame
from agon.tournaments.notices import tournament_phase_notify, tournament_result_notify
from agon.tournaments.withdrawal import forfeit_if_withdrawn, withdrawn_entrants
from competition.formats.core import Result, ScheduledGame, deal_seed
from competition.formats.protocol import Format
from competition.formats.registry import get_format
from competition.formats.standings import Standing

log = logging.getLogger(__name__)

ADVANCE_TASK = "agon.tournaments.tasks.tournament_advance"


def tournaments_advance(*, now: datetime | None = None) -> list[int]:
    """The beat's step: close the entries that are due, then move every running
    tournament on. The ids of the tournaments that changed."""
    now = timezone.now() if now is None else now
    changed = []
    due = Tournament.objects.filter(status=Tournament.Status.ENTRY, entry_closes__lte=now)
    for tournament_id in due.values_list("id", flat=True):
        if tournament_close_entry(tournament_id=tournament_id, now=now):
            changed.append(tournament_id)
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    for tournament_id in running.values_list("id", flat=True):
        if tournament_advance(tournament_id=tournament_id) and tournament_id not in changed:
            changed.append(tournament_id)
    return changed


def tournament_close_entry(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Freeze the entrants: each entered bot plays with its active version now, or drops
    out if it has none or its owner retired it since it entered. Seeds follow the bots'
    ratings on the ladder of the same game, players and options, then the order of entry.
    Too few entrants cancel it; otherwise it starts and its first games are stored. False
    if it was not due (or done already)."""
    started = _close_entry(tournament_id, timezone.now() if now is None else now)
    if started:
        tournament_advance(tournament_id=tournament_id)
    return started is not None


@transaction.atomic
def _close_entry(tournament_id: int, now: datetime) -> bool | None:
    """None if not due; True if it started, False if it was cancelled for too few."""
    tournament = Tournament.objects.select_for_update().filter(id=tournament_id).first()
    if (
        tournament is None
        or tournament.status != Tournament.Status.ENTRY
        or tournament.entry_closes > now
    ):
        return None
    entries = list(tournament.entries.select_related("bot").order_by("id"))
    active = {
        version.bot_id: version
        for version in BotVersion.objects.filter(
            bot_id__in=[entry.bot_id for entry in entries],
            bot__retired__isnull=True,
            status=BotVersion.Status.ACTIVE,
        )
    }
    playing = _seeded([entry for entry in entries if entry.bot_id in active], tournament)
    for number, entry in enumerate(playing):
        entry.version = active[entry.bot_id]
        entry.number = number
        entry.save(update_fields=["version", "number"])
    dropped = len(entries) - len(playing)
    if len(playing) < minimum_entrants(tournament):
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished = now
        tournament.note = (
            f"cancelled: {len(playing)} entrants with an active version (and not retired) "
            f"when the entry closed, fewer than the {minimum_entrants(tournament)} it needs"
        )
        tournament.save(update_fields=["status", "finished", "note"])
        tournament_phase_notify(tournament)
        return False
    tournament.status = Tournament.Status.RUNNING
    tournament.started = now
    if tournament.rounds is None and get_format(tournament.format).TAKES_ROUNDS:
        tournament.rounds = event_for(tournament, len(playing)).round_count()  # its default
    if dropped:
        tournament.note = (
            f"{dropped} entered bots had no active version or were retired and did not play"
        )
    tournament.save(update_fields=["status", "started", "rounds", "note"])
    tournament_phase_notify(tournament)
    return True


def _seeded(entries: Sequence[Entry], tournament: Tournament) -> list[Entry]:
    """Best seed first: by rating on the ladder of the tournament's settings, then unrated
    bots in the order they entered."""
    rated = list(
        Rating.objects.filter(
            ladder__game=tournament.game,
            ladder__players=tournament.players,
            ladder__options=tournament.options,
            ladder__open=True,
            bot_id__in=[entry.bot_id for entry in entries],
        )
        .order_by(*LEADERBOARD_ORDER)
        .values_list("bot_id", flat=True)
    )
    place = {bot_id: index for index, bot_id in enumerate(dict.fromkeys(rated))}
    return sorted(entries, key=lambda entry: (place.get(entry.bot_id, len(place)), entry.id))


def tournament_advance(*, tournament_id: int) -> bool:
    """Store the games the format asks for next, or finish the tournament once it asks
    for none and none is being played. False if nothing changed."""
    changed = False
    # A bye is decided as it is stored: the format may then ask for more at once.
    while _advance_step(tournament_id):
        changed = True
    if changed:
        background_dispatch()  # a private tournament's new games wait for room there
    return changed


def _advance_step(tournament_id: int) -> bool:
    running = Tournament.objects.filter(id=tournament_id, status=Tournament.Status.RUNNING)
    tournament = running.first()
    if tournament is None:
        return False
    seen = tournament.results_seen
    games = TournamentGame.objects.filter(tournament_id=tournament_id)
    counts = games.aggregate(stored=Count("id"), decided=Count("id", filter=Q(ranks__isnull=False)))
    if counts["stored"] and counts["decided"] == seen:
        return False  # nothing decided since the format was last asked
    # Unlocked: the pairing may take a while, and workers must meanwhile record results.
    results = results_of_lines(game_lines(tournament_id, decided=True))
    entrants = _entrants(tournament)
    event = event_for(tournament, len(entrants))
    wanted = event.next_games(results)
    return _store(tournament_id, seen, len(results), wanted, event, results, entrants)


@transaction.atomic
def _store(
    tournament_id: int,
    seen: int,
    decided: int,
    wanted: Sequence[ScheduledGame],
    event: Format,
    results: Sequence[Result],
    entrants: Sequence[Entry],
) -> bool:
    """Under the tournament's row lock: store the `wanted` games not stored yet, or
    finish the tournament when none is wanted and none is undecided. True if it did
    either."""
    tournament = Tournament.objects.select_for_update().filter(id=tournament_id).first()
    if (
        tournament is None
        or tournament.status != Tournament.Status.RUNNING
        or tournament.results_seen != seen
    ):
        return False  # cancelled, or another step got here first
    rounds = {game.round for game in wanted}
    stored = set(tournament.games.filter(round__in=rounds).values_list("round", "tie", "index"))
    new = [game for game in wanted if slot(game) not in stored]
    tournament.results_seen = decided
    tournament.save(update_fields=["results_seen"])
    if new:
        withdrawn = withdrawn_entrants(tournament)
        rows = TournamentGame.objects.bulk_create(
            forfeit_if_withdrawn(game_row(tournament, game), withdrawn) for game in new
        )
        if tournament.public:
            for row in rows:
                if row.ranks is None:  # neither a bye nor a withdrawn bot's forfeit
                    _match_attach(tournament, row, entrants)
        return True
    if wanted or tournament.games.filter(ranks__isnull=True).exists():
        return False
    _finish(tournament, event.standings(results), entrants)
    return True


def _match_attach(tournament: Tournament, row: TournamentGame, entrants: Sequence[Entry]) -> None:
    """Give the stored game `row` a new match on its seats, dealt afresh for each replay
    (the caller holds the tournament's row)."""
    seats = [entrants[bot].version for bot in row.bots]
    playing = [seat for seat in seats if seat is not None]
    row.match = _match_for(tournament, playing, deal_seed(game_of(row), row.replays))
    row.save(update_fields=["match"])


def tournaments_waiting() -> list[Waiting]:
    """The private tournaments with stored games waiting for a match: the background
    share's source (agon.matches.background)."""
    held = list(
        TournamentGame.objects.filter(
            tournament__status=Tournament.Status.RUNNING,
            tournament__public=False,
            match__isnull=True,
            ranks__isnull=True,
        )
        .values_list("tournament_id", "tournament__owner_id", "tournament__created")
        .distinct()
        .order_by()
    )
    served = dict(
        Match.objects.filter(tournament_game__tournament_id__in=[key for key, *_ in held])
        .values_list("tournament_game__tournament_id")
        .annotate(last=Max("created"))
        .order_by()
    )
    return [
        Waiting("tournaments", key, owner, since, served.get(key)) for key, owner, since in held
    ]


@transaction.atomic
def tournament_dispatch(tournament_id: int, limit: int) -> int:
    """Give at most `limit` of the tournament's waiting games their matches, in the
    order the format asked for them; how many it gave."""
    tournament = (
        Tournament.objects.select_for_update()
        .filter(id=tournament_id, status=Tournament.Status.RUNNING)
        .first()
    )
    if tournament is None:
        return 0
    rows = list(
        tournament.games.filter(match__isnull=True, ranks__isnull=True).order_by("id")[:limit]
    )
    if not rows:
        return 0
    entrants = _entrants(tournament)
    for row in rows:
        _match_attach(tournament, row, entrants)
    return len(rows)


def _match_for(tournament: Tournament, seats: Sequence[BotVersion], seed: int) -> Match:
    return match_create(
        kind=Match.Kind.TOURNAMENT,
        game=tournament.game,
        players=len(seats),
        options=dict(tournament.options),
        seats=seats,
        seed=seed,
        created_by=tournament.owner,
        background=not tournament.public,
        private=not tournament.public,
    )


def _finish(
    tournament: Tournament, standings: Sequence[Standing], entrants: Sequence[Entry]
) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished = timezone.now()
    tournament.standings = standings_rows(standings, entrant_labels(entrants))
    tournament.save(update_fields=["status", "finished", "standings"])
    tournament_result_notify(tournament)
    log.info("tournament %s finished", tournament.id)


def standings_rows(
    standings: Sequence[Standing], entrants: Sequence[tuple[int, str]]
) -> list[dict[str, object]]:
    """Standings as stored and shown: the entrant's bot and version label (`entrants`:
    each entrant's bot id and label, by number; `entrant_labels`) with its place."""
    return [
        {
            "rank": standing.rank,
            "entrant": standing.bot,
            "bot": entrants[standing.bot][0],
            "version": entrants[standing.bot][1],
            "points": standing.points,
            "tiebreaks": dict(standing.tiebreaks),
        }
        for standing in standings
    ]


def entrant_labels(entrants: Sequence[Entry]) -> list[tuple[int, str]]:
    """Each entrant's bot id and version label (empty without a version)."""
    return [
        (entry.bot_id, entry.version.label if entry.version is not None else "")
        for entry in entrants
    ]


def tournament_game_conclude(match: Match) -> None:
    """The outcome of a tournament match (inside the transaction that ends it).

    It locks the tournament's row first, as every step and a cancel do: a cancel
    committed while it waited is seen, and its match is ignored."""
    games = TournamentGame.objects.filter(match_id=match.id)
    tournament_id = games.values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        return
    tournament = (
        Tournament.objects.select_for_update()
        .filter(id=tournament_id, status=Tournament.Status.RUNNING)
        .first()
    )
    if tournament is None:
        return  # cancelled: a match still running when it was is ignored
    row = games.select_for_update().first()
    if row is None or row.ranks is not None:
        return
    if match.status == Match.Status.FINISHED:
        row.ranks = list(match.ranks)
        row.save(update_fields=["ranks"])
    elif row.replays < settings.AGON_TOURNAMENT_MAX_REPLAYS:
        row.match = None
        row.replays += 1
        row.save(update_fields=["match", "replays"])
        row.attempts.add(match)
        log.warning("tournament game %s: match %s failed; a new match replays it", row, match.id)
        if tournament.public:
            _match_attach(tournament, row, _entrants(tournament))
        return
    else:
        row.ranks = [1] * len(row.bots)
        row.void = True
        row.save(update_fields=["ranks", "void"])
        log.warning("tournament game %s: its matches kept failing; it counts as a tie", row)
    if not TournamentGame.objects.filter(
        tournament_id=row.tournament_id, ranks__isnull=True
    ).exists():
        # The last game being played: move on now rather than at the next beat.
        tournament_id = row.tournament_id
        transaction.on_commit(lambda: celery_app.send_task(ADVANCE_TASK, args=(tournament_id,)))


def _entrants(tournament: Tournament) -> list[Entry]:
    """The entrants in number order, with the versions they play."""
    return list(
        tournament.entries.filter(number__isnull=False)
        .select_related("version__bot__owner")
        .order_by("number")
    )
