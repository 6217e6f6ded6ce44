"""A fifth format that exists only in the tests, registered by one line
(`tests.conftest.one_round`): the field dealt to tables of `players` in seed order, one
round of `meetings` meetings, the bots left over resting with a bye."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from competition.formats.core import Result, ScheduledGame, meeting
from competition.formats.protocol import Picture, Progress, Settings, games_progress
from competition.formats.standings import Standing, rank_standings

NAME = "one-round"
REGISTRY_LINE = "tests.competition.formats.toy:OneRound"


@dataclass(frozen=True)
class OneRound:
    LABEL: ClassVar[str] = "One Round"
    PICTURE: ClassVar[Picture] = Picture.NONE
    TWO_PLAYERS: ClassVar[bool] = False
    TAKES_ROUNDS: ClassVar[bool] = False

    entrants: int
    seed: int
    players: int = 2
    meetings: int = 1

    def __post_init__(self) -> None:
        if self.entrants < self.players:
            raise ValueError("one round needs one table")

    @classmethod
    def from_settings(cls, settings: Settings) -> OneRound:
        return cls(settings.entrants, settings.seed, settings.players, settings.meetings)

    def schedule(self) -> list[ScheduledGame]:
        games = []
        seated = self.entrants - self.entrants % self.players
        for first in range(0, seated, self.players):
            table = tuple(range(first, first + self.players))
            tie = "-".join(map(str, table))
            for number in range(self.meetings):
                games += meeting(1, tie, table, self.seed, number)
        for bot in range(seated, self.entrants):
            games.append(ScheduledGame(1, f"bye-{bot}", 0, (bot,), self.seed))
        return games

    def next_games(self, results: Sequence[Result]) -> list[ScheduledGame]:
        played = {result.game for result in results}
        return [game for game in self.schedule() if game not in played]

    def standings(self, results: Sequence[Result]) -> list[Standing]:
        return rank_standings(self.entrants, results, ("wins",))

    def most_games(self) -> int:
        return sum(not game.is_bye for game in self.schedule())

    def round_count(self) -> int:
        return 1

    def progress(self, results: Sequence[Result]) -> Progress:
        return games_progress(results, self.most_games())
