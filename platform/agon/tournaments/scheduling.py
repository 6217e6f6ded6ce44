"""The life of a tournament after its entry: freezing the entrants, pairing each round,
concluding each game, and the final standings.

Beat runs `tournaments_advance` (AGON_TOURNAMENT_SECONDS): it closes the entries whose
window is over and asks every running tournament's format for its next games, which are
queued as matches of the kind `tournament`. Each step locks its tournament's row, so two
beats or workers racing over one tournament take turns and the second finds the work
done; the unique slot of a game (round, tie, index) backs that up. The games of a round
are paired only from the results before it, so nothing depends on the order in which
matches finish.

A game's match ends through `tournament_game_conclude`, the kind's outcome, inside the
transaction that ends the match (so exactly once): a finished match gives the game its
ranks (a bot's fault ranks it last: the referee's rule); a failed one (the platform's
fault: a sandbox error, a lost worker) is replaced by a new match on the same seats and
seed, up to AGON_TOURNAMENT_MAX_REPLAYS times (the failed ones stay linked to the game as
its attempts), after which the game counts as a tie of its seats. Ratings never move. A
match ending after its tournament was cancelled changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from agon.bots.models import BotVersion
from agon.celery import app as celery_app
from agon.ladders.models import LEADERBOARD_ORDER, Rating
from agon.matches.models import Match
from agon.matches.services import match_create
from agon.tournaments.events import (
    event_for,
    game_of,
    game_row,
    match_seed,
    minimum_entrants,
    results_of,
    slot,
    swiss_rounds,
)
from agon.tournaments.formats.core import Game, Result
from agon.tournaments.formats.standings import Standing
from agon.tournaments.models import Entry, Tournament, TournamentGame

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


@transaction.atomic
def tournament_close_entry(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Freeze the entrants: each entered bot plays with its active version now, or drops
    out if it has none. Seeds follow the bots' ratings on the ladder of the same game,
    players and options, then the order of entry. Too few entrants cancel it; otherwise
    it starts and its first games are queued. False if it was not due (or done already)."""
    now = timezone.now() if now is None else now
    tournament = Tournament.objects.select_for_update().filter(id=tournament_id).first()
    if (
        tournament is None
        or tournament.status != Tournament.Status.ENTRY
        or tournament.entry_closes > now
    ):
        return False
    entries = list(tournament.entries.select_related("bot").order_by("id"))
    active = {
        version.bot_id: version
        for version in BotVersion.objects.filter(
            bot_id__in=[entry.bot_id for entry in entries], status=BotVersion.Status.ACTIVE
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
            f"cancelled: {len(playing)} entrants with an active version when the entry "
            f"closed, fewer than the {minimum_entrants(tournament)} it needs"
        )
        tournament.save(update_fields=["status", "finished", "note"])
        return True
    tournament.status = Tournament.Status.RUNNING
    tournament.started = now
    if tournament.format == Tournament.Format.SWISS and tournament.rounds is None:
        tournament.rounds = swiss_rounds(len(playing))
    if dropped:
        tournament.note = f"{dropped} entered bots had no active version and did not play"
    tournament.save(update_fields=["status", "started", "rounds", "note"])
    _advance_locked(tournament)
    return True


def _seeded(entries: Sequence[Entry], tournament: Tournament) -> list[Entry]:
    """Best seed first: by rating on the ladder of the tournament's settings, then unrated
    bots in the order they entered."""
    rated = list(
        Rating.objects.filter(
            ladder__game=tournament.game,
            ladder__players=tournament.players,
            ladder__options=tournament.options,
            bot_id__in=[entry.bot_id for entry in entries],
        )
        .order_by(*LEADERBOARD_ORDER)
        .values_list("bot_id", flat=True)
    )
    place = {bot_id: index for index, bot_id in enumerate(dict.fromkeys(rated))}
    return sorted(entries, key=lambda entry: (place.get(entry.bot_id, len(place)), entry.id))


@transaction.atomic
def tournament_advance(*, tournament_id: int) -> bool:
    """Queue the games the format asks for next and not yet queued, or finish the
    tournament once it asks for none and none is being played. False if nothing changed."""
    tournament = Tournament.objects.select_for_update().filter(id=tournament_id).first()
    if tournament is None or tournament.status != Tournament.Status.RUNNING:
        return False
    return _advance_locked(tournament)


def _advance_locked(tournament: Tournament) -> bool:
    """tournament_advance with the tournament's row locked by the caller."""
    rows = list(tournament.games.all())
    entrants = list(
        tournament.entries.filter(number__isnull=False)
        .select_related("version__bot__owner")
        .order_by("number")
    )
    event = event_for(tournament, len(entrants))
    queued = {slot(game_of(row)) for row in rows}
    playing = any(row.ranks is None for row in rows)
    results = results_of(rows)
    changed = False
    while True:
        wanted = [game for game in event.next_games(results) if slot(game) not in queued]
        if not wanted:
            break
        byes = [game for game in wanted if game.is_bye]
        for game in wanted:
            queued.add(slot(game))
            if game.is_bye:
                _bye_create(tournament, game)
            else:
                _game_queue(tournament, game, [entrants[bot].version for bot in game.bots])
                playing = True
        changed = True
        if not byes:
            break
        # A bye is decided at once: the format may now ask for more.
        results = sorted([*results, *(Result(game, (1,)) for game in byes)], key=_by_game)
    if not playing and not event.next_games(results):
        _finish(tournament, event.standings(results), entrants)
        return True
    return changed


def _by_game(result: Result) -> Game:
    return result.game


def _bye_create(tournament: Tournament, game: Game) -> None:
    row = game_row(tournament, game)
    row.ranks = [1]
    row.save()


def _game_queue(tournament: Tournament, game: Game, seats: Sequence[BotVersion | None]) -> None:
    row = game_row(tournament, game)
    row.match = _match_for(tournament, [seat for seat in seats if seat is not None], game)
    row.save()


def _match_for(tournament: Tournament, seats: Sequence[BotVersion], game: Game) -> Match:
    return match_create(
        kind=Match.Kind.TOURNAMENT,
        game=tournament.game,
        players=len(seats),
        options=dict(tournament.options),
        seats=seats,
        seed=match_seed(game),
    )


def _finish(
    tournament: Tournament, standings: Sequence[Standing], entrants: Sequence[Entry]
) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished = timezone.now()
    tournament.standings = standings_rows(standings, entrants)
    tournament.save(update_fields=["status", "finished", "standings"])
    log.info("tournament %s finished", tournament.id)


def standings_rows(
    standings: Sequence[Standing], entrants: Sequence[Entry]
) -> list[dict[str, object]]:
    """Standings as stored and shown: the entrant's bot and version with its place."""
    rows = []
    for standing in standings:
        entry = entrants[standing.bot]
        version = entry.version
        rows.append(
            {
                "rank": standing.rank,
                "entrant": standing.bot,
                "bot": entry.bot_id,
                "version": version.label if version is not None else "",
                "points": standing.points,
                "tiebreaks": dict(standing.tiebreaks),
            }
        )
    return rows


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
        seats = [seat.version for seat in match.seats.select_related("version__bot__owner")]
        row.match = _match_for(tournament, [s for s in seats if s is not None], game_of(row))
        row.replays += 1
        row.save(update_fields=["match", "replays"])
        row.attempts.add(match)
        log.warning("tournament game %s: match %s failed; replayed by a new match", row, match.id)
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
