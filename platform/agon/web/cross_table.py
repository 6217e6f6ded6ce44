"""A round robin's cross-table: a row per bot in standings order, a column per opponent in
the same order (numbered as the rows), each cell the row bot's points against the column
bot (pairwise at tables of more than two players, as the tie-breaks count them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agon.web.bracket import points_text
from competition.formats.core import Result
from competition.formats.standings import Standing, pairwise_points


@dataclass(frozen=True)
class Cell:
    opponent: int
    points: float
    games: int
    own: bool = False
    """The bot's own column: nothing to show (the page shades it)."""

    @property
    def text(self) -> str:
        if self.own:
            return ""
        return points_text(self.points) if self.games else "·"


@dataclass(frozen=True)
class CrossRow:
    number: int
    standing: Standing
    cells: tuple[Cell, ...]


def cross_table(standings: Sequence[Standing], results: Sequence[Result]) -> list[CrossRow]:
    met = pairwise_points(results)
    order = [standing.bot for standing in standings]
    return [
        CrossRow(
            number,
            standing,
            tuple(
                Cell(opponent, *met.get((standing.bot, opponent), (0.0, 0)))
                if opponent != standing.bot
                else Cell(opponent, 0.0, 0, own=True)
                for opponent in order
            ),
        )
        for number, standing in enumerate(standings, start=1)
    ]
