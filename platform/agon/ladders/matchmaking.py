"""Which ladders play and who plays whom: pure functions, so the live matchmaker and the
rating simulation in `bench/ratings.py` run the same code.

The workers are shared between the ladders by need: each new match of a round goes to
the ladder whose bots played the fewest games lately (its recent matches times its
players, over its bots), among those with bots free for another table (`share_out`).

Each table picks an anchor, favouring bots with few games on their current version
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


@dataclass(frozen=True)
class LadderLoad:
    ladder_id: int
    players: int
    bots: int
    """Bots rated on the ladder with an active version."""
    free: int
    """Of those, the ones in none of its queued or running matches."""
    recent: int
    """Its ranked matches made lately (the last AGON_FAIR_SHARE_SECONDS)."""

    def games_per_bot(self, more: int = 0) -> float:
        """The games each of its bots played lately, on average, with `more` matches."""
        return (self.recent + more) * self.players / max(self.bots, 1)


def share_out(loads: Sequence[LadderLoad], matches: int) -> dict[int, int]:
    """How many of `matches` new matches each ladder gets (by ladder id; none for a
    ladder left out): one at a time, to the ladder whose bots played the fewest games
    lately, among those with free bots for one more table; ties go to the lower id."""
    given = dict.fromkeys((load.ladder_id for load in loads), 0)
    for _ in range(matches):
        open_ladders = [
            load for load in loads if (given[load.ladder_id] + 1) * load.players <= load.free
        ]
        if not open_ladders:
            break
        neediest = min(
            open_ladders,
            key=lambda load: (load.games_per_bot(given[load.ladder_id]), load.ladder_id),
        )
        given[neediest.ladder_id] += 1
    return {ladder_id: count for ladder_id, count in given.items() if count}


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
