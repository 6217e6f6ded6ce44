"""Play a format to the end with made-up results."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random
from typing import Protocol

from competition.formats.core import Result, ScheduledGame
from competition.formats.standings import Standing

Decide = Callable[[ScheduledGame], tuple[int, ...]]


class Format(Protocol):
    def next_games(self, results: Sequence[Result]) -> list[ScheduledGame]: ...

    def standings(self, results: Sequence[Result]) -> list[Standing]: ...


def play_out(tournament: Format, decide: Decide, batches: int = 500) -> list[Result]:
    """Play every batch the format asks for; a bye is won."""
    results: list[Result] = []
    for _ in range(batches):
        games = tournament.next_games(results)
        if not games:
            return results
        results += [Result(g, (1,) if g.is_bye else decide(g)) for g in games]
    raise AssertionError("the format never ended")


def ranks_by(order: Sequence[int]) -> tuple[int, ...]:
    """Ranks per seat from the seats in finishing order."""
    ranks = [0] * len(order)
    for place, seat in enumerate(order, start=1):
        ranks[seat] = place
    return tuple(ranks)


def stronger_wins(game: ScheduledGame) -> tuple[int, ...]:
    """The lower entrant index (the better seed) always finishes ahead."""
    return ranks_by(sorted(range(len(game.bots)), key=lambda seat: game.bots[seat]))


def random_results(seed: int) -> Decide:
    rng = Random(seed)

    def decide(game: ScheduledGame) -> tuple[int, ...]:
        if rng.random() < 0.2:
            return tuple(1 for _ in game.bots)
        seats = list(range(len(game.bots)))
        rng.shuffle(seats)
        return ranks_by(seats)

    return decide


def draws(game: ScheduledGame) -> tuple[int, ...]:
    return tuple(1 for _ in game.bots)
