"""Gauntlet: the first entrant against each of the others, `meetings` pairs of games each.

Beside the standings it reports the entrant's Elo difference to each opponent and its
performance against the field as a whole (the field's mean taken as 0), each with its 95%
interval, from the pairs' pentanomial counts (`sprt.elo_estimate`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from competition.formats.core import Result, ScheduledGame, game_points, meeting
from competition.formats.protocol import Picture, Progress, Settings, games_progress
from competition.formats.standings import Standing, rank_standings
from competition.sprt import EloEstimate, elo_estimate, pair_outcome

TIEBREAKS = ("wins",)


@dataclass(frozen=True)
class Gauntlet:
    LABEL: ClassVar[str] = "Gauntlet"
    PICTURE: ClassVar[Picture] = Picture.GAUNTLET
    TWO_PLAYERS: ClassVar[bool] = True
    TAKES_ROUNDS: ClassVar[bool] = False

    entrants: int
    seed: int
    meetings: int = 1

    def __post_init__(self) -> None:
        if self.entrants < 2 or self.meetings < 1:
            raise ValueError("a gauntlet needs an entrant, a field and one meeting each")

    @classmethod
    def from_settings(cls, settings: Settings) -> Gauntlet:
        if settings.players != 2:
            raise ValueError("a gauntlet is played in pairs of games: players must be 2")
        return cls(settings.entrants, settings.seed, settings.meetings)

    def schedule(self) -> list[ScheduledGame]:
        return [
            game
            for opponent in range(1, self.entrants)
            for number in range(self.meetings)
            for game in meeting(opponent, f"0-{opponent}", (0, opponent), self.seed, number)
        ]

    def next_games(self, results: Sequence[Result]) -> list[ScheduledGame]:
        played = {result.game for result in results}
        return [game for game in self.schedule() if game not in played]

    def standings(self, results: Sequence[Result]) -> list[Standing]:
        return rank_standings(self.entrants, results, TIEBREAKS)

    def most_games(self) -> int:
        return (self.entrants - 1) * 2 * self.meetings

    def round_count(self) -> None:
        return None

    def progress(self, results: Sequence[Result]) -> Progress:
        return games_progress(results, self.most_games())

    def pentanomials(self, results: Sequence[Result]) -> dict[int, list[int]]:
        """Per opponent, the entrant's pairs by points scored (0, 1/2, ..., 2)."""
        pair_points: dict[tuple[str, int], list[float]] = {}
        for result in results:
            scored = game_points(result.ranks)[result.game.bots.index(0)]
            pair_points.setdefault((result.game.tie, result.game.index // 2), []).append(scored)
        counts = {opponent: [0] * 5 for opponent in range(1, self.entrants)}
        for (tie, _), points in sorted(pair_points.items()):
            if len(points) == 2:
                counts[int(tie.split("-")[1])][pair_outcome(sum(points))] += 1
        return counts

    def elo_by_opponent(self, results: Sequence[Result]) -> dict[int, EloEstimate]:
        return {opponent: elo_estimate(c) for opponent, c in self.pentanomials(results).items()}

    def performance(self, results: Sequence[Result]) -> EloEstimate:
        totals = [0] * 5
        for counts in self.pentanomials(results).values():
            totals = [a + b for a, b in zip(totals, counts, strict=True)]
        return elo_estimate(totals)
