"""Megalopolis scoring: controlled groups, printed bonus points, the silver majority.

A player controls every tile with at least one of their tokens, whoever else has tokens
there. Each group of at least 3 adjacent controlled tiles scores its size; each
controlled tile scores its printed bonus; the player(s) controlling the most
silver-bordered tiles score 1 point per such tile. Ties go to the largest controlled
group, then stay shared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.megalopolis import native
from engine.megalopolis.components import BONUS, SILVER, SMALLEST_SCORING_GROUP
from engine.megalopolis.state import MegalopolisState
from engine.megalopolis.table import groups


@dataclass(frozen=True)
class PlayerScore:
    group_points: int
    bonus_points: int
    silver_tiles: int
    silver_points: int
    largest_group: int

    @property
    def total(self) -> int:
        return self.group_points + self.bonus_points + self.silver_points

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "groups": self.group_points,
            "bonus": self.bonus_points,
            "silver": self.silver_points,
            "silver_tiles": self.silver_tiles,
            "largest_group": self.largest_group,
        }


def group_points(sizes: list[int]) -> int:
    return sum(size for size in sizes if size >= SMALLEST_SCORING_GROUP)


def score_parts(state: MegalopolisState) -> list[tuple[int, int, int, int]]:
    """Each player's (group points, bonus points, silver tiles, largest group), in pure
    Python: the reference of the compiled core's `score_parts` and its fallback."""
    cells_of: list[list[int]] = [[] for _ in range(state.players)]
    for code, tile in state.board.items():
        for player, count in enumerate(tile.tokens):
            if count:
                cells_of[player].append(code)
    parts = []
    for cells in cells_of:
        sizes = [len(group) for group in groups(cells)]
        kinds = [state.board[code].kind for code in cells]
        parts.append(
            (
                group_points(sizes),
                sum(BONUS[kind] for kind in kinds),
                sum(1 for kind in kinds if SILVER[kind]),
                max(sizes, default=0),
            )
        )
    return parts


def score_state(state: MegalopolisState) -> list[PlayerScore]:
    core = native.CORE
    if core is not None:
        parts: list[tuple[int, int, int, int]] = core.score_parts(state.board, state.players)
    else:
        parts = score_parts(state)
    most_silver = max(silver for _, _, silver, _ in parts)
    return [
        PlayerScore(
            group_points=group,
            bonus_points=bonus,
            silver_tiles=silver,
            silver_points=silver if silver == most_silver and silver > 0 else 0,
            largest_group=largest,
        )
        for group, bonus, silver, largest in parts
    ]
