"""A tournament as its pure format sees it: the format object, the results, the bounds.

The formats (`competition.formats`) know entrants by number and games by
`ScheduledGame` records; this module turns a `Tournament` and its `TournamentGame` rows
into those, builds its format from the registry (`competition.formats.registry`) and says
how many games a tournament may come to before it is made.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q

from agon.tournaments.models import Tournament, TournamentGame
from competition.formats.core import Result, ScheduledGame
from competition.formats.protocol import Format, Settings
from competition.formats.registry import get_format

NOT_A_BYE = Q(match__isnull=False) | Q(ranks__isnull=True) | Q(forfeited=True)
"""Of a tournament's game rows, the games to play: a bye has no match and is decided as
it is stored; a game has a match, or waits for one undecided, or was forfeited by a bot
that withdrew (agon.tournaments.withdrawal)."""


def event_for(tournament: Tournament, entrants: int) -> Format:
    """The tournament's format for `entrants` bots (ValueError if they are too few)."""
    settings = Settings(
        entrants, tournament.seed, tournament.players, tournament.meetings, tournament.rounds
    )
    return get_format(tournament.format).from_settings(settings)


def minimum_entrants(tournament: Tournament) -> int:
    return max(2, tournament.players)


def game_of(row: TournamentGame) -> ScheduledGame:
    return ScheduledGame(row.round, row.tie, row.index, tuple(row.bots), row.seed)


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
            Result(
                ScheduledGame(line.round, line.tie, line.index, line.bots, line.seed), line.ranks
            )
            for line in lines
            if line.ranks is not None
        ),
        key=lambda result: result.game,
    )


def game_row(tournament: Tournament, game: ScheduledGame) -> TournamentGame:
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


def slot(game: ScheduledGame) -> tuple[int, str, int]:
    return (game.round, game.tie, game.index)


def most_games(
    *, format: str, entrants: int, players: int, meetings: int, rounds: int | None
) -> int:
    """An upper bound on the games (byes left out) a tournament of `entrants` bots plays;
    ValueError when the format cannot be played so (a round robin of too many tables)."""
    settings = Settings(entrants, 0, players, meetings, rounds)
    return get_format(format).from_settings(settings).most_games()
