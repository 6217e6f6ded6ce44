"""Who plays whom: pure functions, so the live matchmaker and the rating simulation in
`bench/ratings.py` run the same code.

Each round picks an anchor, favouring bots with few games on their current version
(new versions settle fast), then fills the table with opponents near the anchor in
rating, drawn at random from a small window so pairings vary. A bot never meets itself
and sits at one table per round at most.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

OPPONENT_WINDOW = 4
"""Opponents are drawn from this many nearest candidates per seat to fill."""


@dataclass(frozen=True)
class Candidate:
    bot_id: int
    rating: float
    version_games: int


def _anchor_weight(candidate: Candidate) -> float:
    return 1.0 / (1.0 + candidate.version_games) + 0.05


def pick_tables(
    candidates: Sequence[Candidate], players: int, tables: int, rng: Random
) -> list[list[int]]:
    """Up to `tables` tables of `players` distinct bots (by bot id)."""
    free = {c.bot_id: c for c in candidates}
    chosen: list[list[int]] = []
    while len(chosen) < tables and len(free) >= players:
        pool = sorted(free.values(), key=lambda c: c.bot_id)
        anchor = rng.choices(pool, weights=[_anchor_weight(c) for c in pool])[0]
        del free[anchor.bot_id]
        table = [anchor.bot_id]
        for _ in range(players - 1):
            nearest = sorted(
                free.values(), key=lambda c: (abs(c.rating - anchor.rating), c.bot_id)
            )[:OPPONENT_WINDOW]
            opponent = rng.choice(nearest)
            del free[opponent.bot_id]
            table.append(opponent.bot_id)
        rng.shuffle(table)
        chosen.append(table)
    return chosen
