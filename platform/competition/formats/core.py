"""The records every format shares: a game to play, its result, points and seeds.

A *meeting* of a table is one game per rotation of its seats: two players play a pair of
games with swapped seats (as fishtest and cutechess pair games), and P players play P games
in which every bot sits once in every seat. Seat advantage cancels within a meeting.

The games of a meeting share the format's seed (`ScheduledGame.seed`, which names the
meeting), but each is dealt afresh (`deal_seed`): the face-down stacks, hands and piles of
one game say nothing of another's. Dealing a meeting's games alike would cancel the luck of the deal
too, and would give a bot that remembers its first game (by any channel between sandboxes:
the host's page cache, see docs/threat-model.md) the hidden order of the second. A game
played again after its match failed is dealt afresh as well. The luck of the deal is then
noise the statistics carry: bench/twin_deals.py measures what it costs.

Every seed here is `engine.rng.derive_seed(..., one_way=True)` of the event's seed and
labels naming the game: SHA-256, so a deal seed (shown in a finished game's replay) tells
neither its meeting's seed nor the event's. A game is known by its place and seats, not
by its seed (which is left out of comparisons): the tournaments stored before the seeds
were framed by type and length (they were "seed:label:..." hashed) go on with the seeds
they stored, and their new games take the new ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.rng import derive_seed

MAX_SEED = 2**64 - 1


@dataclass(frozen=True, order=True)
class ScheduledGame:
    """One game: `bots` are entrant indexes in seat order. A game of one bot is a bye."""

    round: int
    tie: str
    """What the game belongs to: a table of a round, a knockout tie ("W2.1"), ..."""
    index: int
    """The game's place within its tie."""
    bots: tuple[int, ...]
    seed: int = field(compare=False)
    """The meeting's seed; not part of what the game is (see the module's docstring)."""

    @property
    def is_bye(self) -> bool:
        return len(self.bots) == 1


@dataclass(frozen=True)
class Result:
    game: ScheduledGame
    ranks: tuple[int, ...]
    """Per seat, 1 is best; tied seats share a rank."""


def deal_seed(game: ScheduledGame, replay: int = 0) -> int:
    """The seed a game's match is played (dealt) on: the game's own, from the meeting's
    seed, its place in the meeting and how often it was played again after a failure.
    A one-way hash: the deal seed a finished game's replay shows reveals neither the
    meeting's seed nor another game's deal."""
    return derive_seed(game.seed, "deal", game.index, replay, one_way=True)


def rotations(bots: Sequence[int]) -> list[tuple[int, ...]]:
    """The seatings of one meeting: each bot in each seat once, the table's order kept."""
    size = len(bots)
    return [tuple(bots[(start + seat) % size] for seat in range(size)) for start in range(size)]


def meeting(
    round_: int, tie: str, bots: Sequence[int], seed: int, number: int = 0
) -> list[ScheduledGame]:
    """The games of the `number`-th meeting of `bots` in a tie, on one shared seed."""
    shared = derive_seed(seed, tie, number, one_way=True)
    first = number * len(bots)
    return [
        ScheduledGame(round_, tie, first + offset, seating, shared)
        for offset, seating in enumerate(rotations(bots))
    ]


def game_points(ranks: Sequence[int]) -> list[float]:
    """Each seat's points: the share of its opponents it finished ahead of, a tie counting
    half. Two players score 1, 1/2 or 0; a table of P shares P/2 points; a bye scores 1."""
    if len(ranks) == 1:
        return [1.0]
    others = len(ranks) - 1
    return [
        sum(_pair_score(mine, theirs) for seat, theirs in enumerate(ranks) if seat != me) / others
        for me, mine in enumerate(ranks)
    ]


def _pair_score(rank: int, other: int) -> float:
    return 1.0 if rank < other else 0.5 if rank == other else 0.0


def pairwise_scores(result: Result) -> list[tuple[int, int, float]]:
    """(bot, opponent, score 1 / 0.5 / 0) for every ordered pair of seats of a played game."""
    ranks, bots = result.ranks, result.game.bots
    return [
        (bots[i], bots[j], _pair_score(ranks[i], ranks[j]))
        for i in range(len(bots))
        for j in range(len(bots))
        if i != j
    ]
