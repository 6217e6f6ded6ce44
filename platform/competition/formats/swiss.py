"""Swiss: a fixed number of rounds, each bot paired with bots on the same score.

Two players: score group by score group from the top, as the Dutch system pairs them
(`swiss_pairing`): no rematch while one is avoidable, as many pairs within each group as
that allows, the top half of a group meeting its bottom half. An odd field gives a bye,
worth a won meeting, to the lowest bot that has not had one.

Tables of 3 to 6: the best bot not yet seated opens a table and picks, among the next
TABLE_WINDOW bots in order of score then seed, the one that has met its table least (the
higher on a tie), until the table is full; the bots left over (the lowest that have not had
a bye) get byes.

Every round has the same number of games (tables and byes alike play `players` games a
meeting), so `next_games` finds the round being played by counting, and pairs that round
alone: a call costs one round's pairing however far the event has gone.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from competition.formats.core import Result, ScheduledGame, meeting
from competition.formats.protocol import Picture, Progress, Settings, games_progress
from competition.formats.standings import TIEBREAKS, Standing, points_by_bot, rank_standings
from competition.formats.swiss_pairing import pair_by_score
from engine.rng import derive_seed

__all__ = ["TABLE_WINDOW", "Swiss", "default_rounds", "pair_by_score", "tables_by_score"]

TABLE_WINDOW = 2
"""How many tables' worth of bots below a table's first it may reach to avoid a rematch."""


def default_rounds(entrants: int) -> int:
    """The rounds of a Swiss when none are set: enough to separate the field, plus one."""
    return math.ceil(math.log2(max(entrants, 2))) + 1


@dataclass(frozen=True)
class Swiss:
    LABEL: ClassVar[str] = "Swiss"
    PICTURE: ClassVar[Picture] = Picture.NONE
    TWO_PLAYERS: ClassVar[bool] = False
    TAKES_ROUNDS: ClassVar[bool] = True

    entrants: int
    seed: int
    rounds: int
    players: int = 2
    meetings: int = 1

    def __post_init__(self) -> None:
        if self.entrants < self.players or self.players < 2:
            raise ValueError("a Swiss needs at least one table of 2+ entrants")
        if self.rounds < 1 or self.meetings < 1:
            raise ValueError("a Swiss needs at least one round of one meeting")

    @classmethod
    def from_settings(cls, settings: Settings) -> Swiss:
        rounds = settings.rounds or default_rounds(settings.entrants)
        return cls(settings.entrants, settings.seed, rounds, settings.players, settings.meetings)

    def next_games(self, results: Sequence[Result]) -> list[ScheduledGame]:
        """The unplayed games of the first round not finished yet."""
        round_ = self.current_round(results)
        if round_ is None:
            return []
        played = {result.game for result in results}
        return [game for game in self.pair_round(round_, results) if game not in played]

    def games_a_round(self) -> int:
        tables, byes = divmod(self.entrants, self.players)
        return (tables + byes) * self.players * self.meetings

    def current_round(self, results: Sequence[Result]) -> int | None:
        """The first round with fewer games played than a round has, None after the last."""
        played = Counter(game.round for game in {result.game for result in results})
        full = self.games_a_round()
        return next((r for r in range(1, self.rounds + 1) if played[r] < full), None)

    def pair_round(self, round_: int, results: Sequence[Result]) -> list[ScheduledGame]:
        """The games of `round_`, paired from the results of the rounds before it."""
        earlier = [r for r in results if r.game.round < round_]
        points = points_by_bot(self.entrants, earlier)
        order = sorted(range(self.entrants), key=lambda bot: (-round(points[bot], 9), bot))
        had_bye = {r.game.bots[0] for r in earlier if r.game.is_bye}
        byes = self._byes(order, had_bye)
        playing = [bot for bot in order if bot not in byes]
        tables: list[tuple[int, ...]]
        if self.players == 2:
            tables = [*self.pair_two(playing, points, _met(earlier))]
        else:
            tables = tables_by_score(playing, self.players, _met_counts(earlier))
        games: list[ScheduledGame] = []
        for bot in byes:
            games += [
                ScheduledGame(
                    round_,
                    f"bye-{bot}",
                    index,
                    (bot,),
                    derive_seed(self.seed, round_, bot, one_way=True),
                )
                for index in range(self.players * self.meetings)
            ]
        for table in tables:
            tie = "-".join(str(bot) for bot in table)
            for number in range(self.meetings):
                games += meeting(
                    round_, tie, table, derive_seed(self.seed, round_, one_way=True), number
                )
        return games

    def pair_two(
        self, order: Sequence[int], points: Sequence[float], met: set[frozenset[int]]
    ) -> list[tuple[int, int]]:
        """The pairs of a two-player round (a method, so a bench can time another one)."""
        return pair_by_score(order, points, met)

    def _byes(self, order: Sequence[int], had_bye: set[int]) -> list[int]:
        left_over = len(order) % self.players
        fresh = [bot for bot in reversed(order) if bot not in had_bye]
        again = [bot for bot in reversed(order) if bot in had_bye]
        return (fresh + again)[:left_over]

    def standings(self, results: Sequence[Result]) -> list[Standing]:
        return rank_standings(self.entrants, results, TIEBREAKS)

    def most_games(self) -> int:
        return self.rounds * (self.entrants // self.players) * self.players * self.meetings

    def round_count(self) -> int:
        return self.rounds

    def progress(self, results: Sequence[Result]) -> Progress:
        return games_progress(results, self.most_games())


def _met(results: Sequence[Result]) -> set[frozenset[int]]:
    tables = {frozenset(r.game.bots) for r in results}  # a meeting's games share one table
    return {frozenset((a, b)) for bots in tables for a in bots for b in bots if a != b}


def _met_counts(results: Sequence[Result]) -> Counter[frozenset[int]]:
    """How many games each pair of bots has played together."""
    return Counter(
        frozenset((a, b))
        for r in results
        for i, a in enumerate(r.game.bots)
        for b in r.game.bots[i + 1 :]
    )


def tables_by_score(
    order: Sequence[int], players: int, met: Counter[frozenset[int]]
) -> list[tuple[int, ...]]:
    """Tables of `players` from `order` (best first, a multiple of `players` long)."""
    left = list(order)
    tables = []
    while left:
        table = [left.pop(0)]
        while len(table) < players:
            window = range(min(len(left), TABLE_WINDOW * players))
            pick = min(
                window, key=lambda i: (sum(met[frozenset((left[i], bot))] for bot in table), i)
            )
            table.append(left.pop(pick))
        tables.append(tuple(table))
    return tables
