"""A tournament as its pure format sees it: the format object, the results, the bounds.

The formats (`competition.formats`) know entrants by number and games by
`Game` records; this module turns a `Tournament` and its `TournamentGame` rows into those,
and says how many games a tournament may come to before it is made.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q

from agon.tournaments.models import Tournament, TournamentGame
from competition.formats.core import Game, Result
from competition.formats.gauntlet import Gauntlet
from competition.formats.knockout import SUDDEN_DEATH_GAMES, TIEBREAK_PAIRS, Knockout
from competition.formats.round_robin import RoundRobin
from competition.formats.swiss import Swiss

Event = RoundRobin | Swiss | Knockout | Gauntlet


NOT_A_BYE = Q(match__isnull=False) | Q(ranks__isnull=True) | Q(forfeited=True)
"""Of a tournament's game rows, the games to play: a bye has no match and is decided as
it is stored; a game has a match, or waits for one undecided, or was forfeited by a bot
that withdrew (agon.tournaments.withdrawal)."""


def swiss_rounds(entrants: int) -> int:
    """The rounds of a Swiss when none are set: enough to separate the field, plus one."""
    return math.ceil(math.log2(max(entrants, 2))) + 1


def event_for(tournament: Tournament, entrants: int) -> Event:
    """The tournament's format for `entrants` bots (ValueError if they are too few)."""
    players, meetings, seed = tournament.players, tournament.meetings, tournament.seed
    kind = Tournament.Format(tournament.format)
    if kind is Tournament.Format.ROUND_ROBIN:
        return RoundRobin(entrants, seed, players, meetings)
    if kind is Tournament.Format.SWISS:
        return Swiss(entrants, seed, tournament.rounds or swiss_rounds(entrants), players, meetings)
    if kind is Tournament.Format.GAUNTLET:
        return Gauntlet(entrants, seed, meetings)
    return Knockout(entrants, seed, kind is Tournament.Format.DOUBLE_ELIMINATION, players, meetings)


def minimum_entrants(tournament: Tournament) -> int:
    return max(2, tournament.players)


def game_of(row: TournamentGame) -> Game:
    return Game(row.round, row.tie, row.index, tuple(row.bots), row.seed)


def results_of(rows: Iterable[TournamentGame]) -> list[Result]:
    """The decided games as the format's results, in the format's order of games."""
    return sorted(
        (Result(game_of(row), tuple(row.ranks)) for row in rows if row.ranks is not None),
        key=lambda result: result.game,
    )


@dataclass(frozen=True, slots=True)
class GameLine:
    """A game as the standings and the progress read it: a tuple from the database, not
    a model (building 20,000 models takes most of a second)."""

    round: int
    tie: str
    index: int
    bots: tuple[int, ...]
    seed: int
    ranks: tuple[int, ...] | None
    match_id: int | None


def game_lines(tournament_id: int, *, decided: bool = False) -> list[GameLine]:
    """The tournament's games (only the decided ones if `decided`), in order of id."""
    rows = TournamentGame.objects.filter(tournament_id=tournament_id).order_by("id")
    if decided:
        rows = rows.filter(ranks__isnull=False)
    fields = ("round", "tie", "index", "bots", "seed", "ranks", "match_id")
    return [
        GameLine(number, tie, index, tuple(bots), seed, tuple(ranks) if ranks else None, match)
        for number, tie, index, bots, seed, ranks, match in rows.values_list(*fields)
    ]


def results_of_lines(lines: Iterable[GameLine]) -> list[Result]:
    """The decided games as the format's results, in the format's order of games (as
    `agon.tournaments.events.results_of`)."""
    return sorted(
        (
            Result(Game(line.round, line.tie, line.index, line.bots, line.seed), line.ranks)
            for line in lines
            if line.ranks is not None
        ),
        key=lambda result: result.game,
    )


def game_row(tournament: Tournament, game: Game) -> TournamentGame:
    """An unsaved row for a game the format asked for: a bye is decided as it is made."""
    return TournamentGame(
        tournament=tournament,
        round=game.round,
        tie=game.tie,
        index=game.index,
        bots=list(game.bots),
        seed=game.seed,
        ranks=[1] if game.is_bye else None,
    )


def slot(game: Game) -> tuple[int, str, int]:
    return (game.round, game.tie, game.index)


def most_games(
    *, format: str, entrants: int, players: int, meetings: int, rounds: int | None
) -> int:
    """An upper bound on the games (byes left out) a tournament of `entrants` bots plays;
    ValueError when the format cannot be played so (a round robin of too many tables)."""
    kind = Tournament.Format(format)
    meeting = players * meetings
    if kind is Tournament.Format.ROUND_ROBIN:
        return sum(
            not game.is_bye for game in RoundRobin(entrants, 0, players, meetings).schedule()
        )
    if kind is Tournament.Format.SWISS:
        return (rounds or swiss_rounds(entrants)) * (entrants // players) * meeting
    if kind is Tournament.Format.GAUNTLET:
        return (entrants - 1) * meeting
    if players > 2:  # heats: the field at least halves each round
        stages = math.ceil(math.log2(max(entrants, 2))) + 1
        return (2 * math.ceil(entrants / players) + stages) * meeting
    ties = entrants - 1 if kind is Tournament.Format.KNOCKOUT else 2 * entrants
    return ties * (meeting + 2 * TIEBREAK_PAIRS + SUDDEN_DEATH_GAMES)
