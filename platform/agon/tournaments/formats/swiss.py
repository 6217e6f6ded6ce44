"""Swiss: a fixed number of rounds, each bot paired with bots on the same score.

Two players: a maximum-weight perfect matching (networkx, Edmonds' blossom algorithm) over
every pair of the bots still to pair. A pair that has not met weighs more than any sum of
the other terms can make up, so there is no rematch while one is avoidable; then the
smaller the score gap the better; then, within a score group, the top half meets the
bottom half as in the Dutch system (1 meets g/2 + 1 in a group of g). An odd field gives a
bye, worth a won meeting, to the lowest bot that has not had one.

Tables of 3 to 6: the best bot not yet seated opens a table and picks, among the next
TABLE_WINDOW bots in order of score then seed, the one that has met its table least (the
higher on a tie), until the table is full; the bots left over (the lowest that have not had
a bye) get byes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from agon.tournaments.formats.core import Game, Result, derive_seed, meeting
from agon.tournaments.formats.standings import TIEBREAKS, Standing, points_by_bot, rank_standings

TABLE_WINDOW = 2
"""How many tables' worth of bots below a table's first it may reach to avoid a rematch."""


@dataclass(frozen=True)
class Swiss:
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

    def next_games(self, results: Sequence[Result]) -> list[Game]:
        """The unplayed games of the first round not finished yet."""
        played = {result.game for result in results}
        for round_ in range(1, self.rounds + 1):
            missing = [g for g in self.pair_round(round_, results) if g not in played]
            if missing:
                return missing
        return []

    def pair_round(self, round_: int, results: Sequence[Result]) -> list[Game]:
        """The games of `round_`, paired from the results of the rounds before it."""
        earlier = [r for r in results if r.game.round < round_]
        points = points_by_bot(self.entrants, earlier)
        order = sorted(range(self.entrants), key=lambda bot: (-round(points[bot], 9), bot))
        had_bye = {r.game.bots[0] for r in earlier if r.game.is_bye}
        byes = self._byes(order, had_bye)
        playing = [bot for bot in order if bot not in byes]
        tables: list[tuple[int, ...]]
        if self.players == 2:
            tables = [*pair_by_score(playing, points, _met(earlier))]
        else:
            tables = tables_by_score(playing, self.players, _met_counts(earlier))
        games: list[Game] = []
        for bot in byes:
            games += [
                Game(round_, f"bye-{bot}", index, (bot,), derive_seed(self.seed, round_, bot))
                for index in range(self.players * self.meetings)
            ]
        for table in tables:
            tie = "-".join(str(bot) for bot in table)
            for number in range(self.meetings):
                games += meeting(round_, tie, table, derive_seed(self.seed, round_), number)
        return games

    def _byes(self, order: Sequence[int], had_bye: set[int]) -> list[int]:
        left_over = len(order) % self.players
        fresh = [bot for bot in reversed(order) if bot not in had_bye]
        again = [bot for bot in reversed(order) if bot in had_bye]
        return (fresh + again)[:left_over]

    def standings(self, results: Sequence[Result]) -> list[Standing]:
        return rank_standings(self.entrants, results, TIEBREAKS)


def _met(results: Sequence[Result]) -> set[frozenset[int]]:
    return {frozenset((a, b)) for r in results for a in r.game.bots for b in r.game.bots if a != b}


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


def pair_by_score(
    order: Sequence[int], points: Sequence[float], met: set[frozenset[int]]
) -> list[tuple[int, int]]:
    """Pairs of `order` (best first; even length): no rematch while avoidable, then by score,
    then top half against bottom half within a score group. The better bot sits first."""
    doubled = {bot: round(2 * points[bot]) for bot in order}
    group_size = {score: list(doubled.values()).count(score) for score in doubled.values()}
    position = {bot: place for place, bot in enumerate(order)}

    def cost(a: int, b: int) -> int:
        gap = doubled[a] - doubled[b]
        distance = abs(position[a] - position[b])
        ideal = group_size[doubled[a]] // 2 if gap == 0 else 0
        return 1000 * gap * gap + abs(distance - ideal)

    worst = max((cost(a, b) for a in order for b in order if a != b), default=0)
    new_pair = (worst + 1) * (len(order) // 2 + 1)
    graph = nx.Graph()
    graph.add_nodes_from(order)
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            fresh = frozenset((a, b)) not in met
            graph.add_edge(a, b, weight=new_pair * fresh + worst + 1 - cost(a, b))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = [(a, b) if position[a] < position[b] else (b, a) for a, b in matching]
    return sorted(pairs, key=lambda pair: position[pair[0]])
