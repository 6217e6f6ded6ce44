"""Round robin: every table meets `meetings` times.

Two players: the circle method (Berger tables) gives n - 1 rounds (n even; an odd field
adds a rest, not a bye: no points), each pair meeting once per cycle. Tables of 3 to 6:
every set of P entrants is one table, so every pair meets equally often (C(n-2, P-2) times
a cycle); a meeting rotates the seats, so every bot sits in every seat equally often. Tables
are packed into rounds of disjoint tables in order.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from competition.formats.core import Result, ScheduledGame, meeting
from competition.formats.protocol import Picture, Progress, Settings, games_progress
from competition.formats.standings import Standing, rank_standings

TIEBREAKS = ("sonneborn_berger", "direct_encounter", "wins")
MAX_TABLES = 500
"""All P-subsets of a large field are too many games; Swiss is the format for those."""


@dataclass(frozen=True)
class RoundRobin:
    LABEL: ClassVar[str] = "Round Robin"
    PICTURE: ClassVar[Picture] = Picture.CROSS_TABLE
    TWO_PLAYERS: ClassVar[bool] = False
    TAKES_ROUNDS: ClassVar[bool] = False

    entrants: int
    seed: int
    players: int = 2
    meetings: int = 1

    @classmethod
    def from_settings(cls, settings: Settings) -> RoundRobin:
        return cls(settings.entrants, settings.seed, settings.players, settings.meetings)

    def __post_init__(self) -> None:
        if self.entrants < self.players or self.players < 2 or self.meetings < 1:
            raise ValueError("a round robin needs at least one table of 2+ entrants")
        if self.players > 2 and math.comb(self.entrants, self.players) * self.meetings > MAX_TABLES:
            raise ValueError(
                f"{self.entrants} entrants in tables of {self.players} make more than "
                f"{MAX_TABLES} tables; play a Swiss instead"
            )

    def tables(self) -> list[list[tuple[int, ...]]]:
        """The rounds of one cycle, each a list of disjoint tables."""
        if self.players == 2:
            return circle_rounds(self.entrants)
        rounds: list[list[tuple[int, ...]]] = []
        for table in itertools.combinations(range(self.entrants), self.players):
            for round_ in rounds:
                if not any(set(table) & set(other) for other in round_):
                    round_.append(table)
                    break
            else:
                rounds.append([table])
        return rounds

    def schedule(self) -> list[ScheduledGame]:
        return list(_schedule(self))

    def next_games(self, results: Sequence[Result]) -> list[ScheduledGame]:
        played = {result.game for result in results}
        return [game for game in _schedule(self) if game not in played]

    def standings(self, results: Sequence[Result]) -> list[Standing]:
        return rank_standings(self.entrants, results, TIEBREAKS)

    def most_games(self) -> int:
        return sum(not game.is_bye for game in _schedule(self))

    def round_count(self) -> int:
        return len(self.tables()) * self.meetings

    def progress(self, results: Sequence[Result]) -> Progress:
        return games_progress(results, self.most_games())


@functools.lru_cache(maxsize=4)
def _schedule(event: RoundRobin) -> tuple[ScheduledGame, ...]:
    """Every game of the event, kept: the beat asks for the next games of a running event
    again and again, and 256 entrants make 32,640 pairs (0.3 s to build)."""
    games: list[ScheduledGame] = []
    cycle = event.tables()
    for number in range(event.meetings):
        for offset, round_ in enumerate(cycle):
            round_number = number * len(cycle) + offset + 1
            for table in round_:
                tie = "-".join(str(bot) for bot in table)
                games += meeting(round_number, tie, table, event.seed, number)
    return tuple(games)


def circle_rounds(entrants: int) -> list[list[tuple[int, ...]]]:
    """Berger tables: fix the first entrant, rotate the others one place a round."""
    field: list[int | None] = list(range(entrants))
    if entrants % 2:
        field.append(None)
    size = len(field)
    rounds = []
    for round_ in range(size - 1):
        rest = field[1:]
        turned = [field[0], *rest[-round_:], *rest[:-round_]] if round_ else field
        pairs: list[tuple[int, ...]] = []
        for i in range(size // 2):
            a, b = turned[i], turned[size - 1 - i]
            if a is not None and b is not None:
                pairs.append((a, b) if (round_ + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
    return rounds
