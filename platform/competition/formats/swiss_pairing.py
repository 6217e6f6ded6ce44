"""Two-player Swiss pairing by score groups, from the top (the Dutch system).

A *bracket* is a score group with the bots floated down into it from the groups above.
Each bracket is paired before the next, and what it guarantees, in order:

1. No rematch while a pairing of the whole round without one exists. When none exists
   (a small field late in a long Swiss), the round is paired instead by one maximum-weight
   matching over every pair (`pair_on_complete_graph`): the fewest rematches there can
   be, then the smallest score gaps; what follows is for the other rounds.
2. Each bracket makes as many pairs within itself as any pairing of it that leaves its
   leftover bots, with every bot below, pairable without a rematch. The leftover bots
   float down into the next bracket; a bot meets a lower score group only then.
3. Within that, the bracket is paired from its top: a floater meets the highest bot it
   can (the smallest score gap), then the group's own bots are paired top half against
   bottom half (1 meets g/2 + 1 in a group of g), and the lowest float when the group
   is odd. A bot whose ideal opponent it has met, or whose ideal pair would leave the rest
   of the bracket short of pairs, takes the next one down the bracket, then the next one
   up (the Dutch transpositions), the first that lets the rest of the bracket pair fully.

The checks that the rest still pairs are cheap for a large field: when none of n bots has
met more than n/2 - 1 of the others, Dirac's theorem gives a pairing without a rematch (a
cycle through all of them), and a greedy pairing often finds one where it does not apply.
A blossom matching (networkx) runs only when both fail, on few bots (the bottom of the
field, a small field late in a long event), and over a bracket with every bot below it
when the bracket's own pairs would leave those unpairable. Everything follows the order
given, never a set's, so the same results give the same pairing.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence

Pair = tuple[int, int]


class Unmet:
    """Who has not met whom among a field, and how many such pairs a set of bots can make."""

    def __init__(self, order: Sequence[int], met: set[frozenset[int]]) -> None:
        self.opponents: dict[int, set[int]] = {bot: set() for bot in order}
        for pair in met:
            a, b = sorted(pair)
            if a in self.opponents and b in self.opponents:
                self.opponents[a].add(b)
                self.opponents[b].add(a)
        self.most_met = max((len(them) for them in self.opponents.values()), default=0)

    def fresh(self, a: int, b: int) -> bool:
        return b not in self.opponents[a]

    def pairs(self, bots: Sequence[int]) -> int:
        """The most pairs of bots that have not met each other among `bots`."""
        size = len(bots)
        if size < 2:
            return 0
        if size == 2:
            return int(self.fresh(bots[0], bots[1]))
        if 2 * (size - 1 - self.most_met) >= size:  # Dirac: every bot misses <= half
            return size // 2
        inside = set(bots)
        if all(2 * (size - 1 - len(self.opponents[bot] & inside)) >= size for bot in bots):
            return size // 2
        if self._greedy_pairs(bots) == size // 2:
            return size // 2
        edges = [(a, b, 1) for i, a in enumerate(bots) for b in bots[i + 1 :] if self.fresh(a, b)]
        return len(max_weight_matching(bots, edges))

    def _greedy_pairs(self, bots: Sequence[int]) -> int:
        """Pairs made by each bot in turn taking the first free bot it has not met: a lower
        bound, and often the answer, that spares a blossom matching."""
        free = list(bots)
        made = 0
        while free:
            top = free.pop(0)
            other = next((bot for bot in free if self.fresh(top, bot)), None)
            if other is not None:
                free.remove(other)
                made += 1
        return made

    def pair_all(self, bots: Sequence[int]) -> bool:
        """Whether `bots` (an even number) pair up without a rematch."""
        return 2 * self.pairs(bots) == len(bots)


def pair_by_score(
    order: Sequence[int], points: Sequence[float], met: set[frozenset[int]]
) -> list[Pair]:
    """Pairs of `order` (best first, by score then seed; even length), bracket by bracket
    from the top as the module says. The better bot of a pair sits first."""
    unmet = Unmet(order, met)
    if not unmet.pair_all(order):
        return pair_on_complete_graph(order, points, met)
    pairs: list[Pair] = []
    floaters: list[int] = []
    groups = score_groups(order, points)
    below = len(order)
    for group in groups:
        below -= len(group)
        made, floaters = pair_bracket(floaters, group, order[len(order) - below :], unmet)
        pairs += made
    position = {bot: place for place, bot in enumerate(order)}
    return sorted(pairs, key=lambda pair: position[pair[0]])


def score_groups(order: Sequence[int], points: Sequence[float]) -> list[list[int]]:
    groups: list[list[int]] = []
    for bot in order:
        if groups and round(points[groups[-1][0]], 9) == round(points[bot], 9):
            groups[-1].append(bot)
        else:
            groups.append([bot])
    return groups


def pair_bracket(
    floaters: Sequence[int], group: Sequence[int], below: Sequence[int], unmet: Unmet
) -> tuple[list[Pair], list[int]]:
    """The pairs of one bracket (the floaters from above, then the group) and the bots it
    floats down, leaving them and `below` pairable without a rematch."""
    bracket = [*floaters, *group]
    pairs, left = dutch_pairs(bracket, len(floaters), unmet.pairs(bracket), unmet)
    if unmet.pair_all([*left, *below]):
        return pairs, left
    return pair_bracket_exactly(bracket, below, unmet)


def dutch_pairs(
    bracket: Sequence[int], floaters: int, target: int, unmet: Unmet
) -> tuple[list[Pair], list[int]]:
    """`target` pairs within the bracket (at most as many as its bots can make without a
    rematch), each bot from the top taking the first opponent in its order of preference
    that lets the rest make the pairs still needed; the bots left over, in order."""
    from_above = set(bracket[:floaters])
    free = list(bracket)
    pairs: list[Pair] = []
    left: list[int] = []
    while free and len(pairs) < target:
        top, rest = free[0], free[1:]
        still = target - len(pairs) - 1
        ideal = 1 if top in from_above else target - len(pairs)
        for index in preference(ideal, len(free)):
            other = free[index]
            remaining = rest[: index - 1] + rest[index:]
            if unmet.fresh(top, other) and unmet.pairs(remaining) >= still:
                pairs.append((top, other))
                free = remaining
                break
        else:  # every pair with `top` costs the bracket a pair: it floats
            left.append(top)
            free = rest
    return pairs, left + free


def preference(ideal: int, size: int) -> Iterator[int]:
    """Indexes of a bot's opponents among the `size` free bots (itself at 0), the ideal
    first, then down the bracket, then back up."""
    return itertools.chain(range(ideal, size), range(ideal - 1, 0, -1))


def pair_bracket_exactly(
    bracket: Sequence[int], below: Sequence[int], unmet: Unmet
) -> tuple[list[Pair], list[int]]:
    """The bracket's pairs from a maximum-weight matching of the bracket and every bot
    below it, over the pairs that have not met: as many pairs within the bracket as
    there can be, then close to the ideal pairs, the lowest floating."""
    size = len(bracket)
    place = {bot: index for index, bot in enumerate(bracket)}
    within = 2 * size * size + 1  # one more pair within outweighs every other term
    everyone = [*bracket, *below]
    edges = []
    for i, a in enumerate(everyone):
        for b in everyone[i + 1 :]:
            if not unmet.fresh(a, b):
                continue
            if b in place:  # a too, as the bracket comes first
                gap = place[b] - place[a]
                edges.append((a, b, within + size - abs(gap - size // 2)))
            else:
                edges.append((a, b, place.get(a, 0)))
    matching = max_weight_matching(everyone, edges)
    pairs = sorted(
        (min(a, b, key=place.__getitem__), max(a, b, key=place.__getitem__))
        for a, b in matching
        if a in place and b in place
    )
    paired = {bot for pair in pairs for bot in pair}
    return pairs, [bot for bot in bracket if bot not in paired]


def pair_on_complete_graph(
    order: Sequence[int], points: Sequence[float], met: set[frozenset[int]]
) -> list[Pair]:
    """The pairing of the whole round as one maximum-weight matching over every pair (the
    algorithm before issue 24): the fewest rematches, then the smallest score gaps, then
    top half against bottom half within a score group. Its cost grows as the cube of the
    field; it pairs the rounds where a rematch cannot be avoided, which happens only when
    the field is smaller than twice the rounds played."""
    doubled = {bot: round(2 * points[bot]) for bot in order}
    group_size = _counts(doubled)
    position = {bot: place for place, bot in enumerate(order)}

    def cost(a: int, b: int) -> int:
        gap = doubled[a] - doubled[b]
        distance = abs(position[a] - position[b])
        ideal = group_size[doubled[a]] // 2 if gap == 0 else 0
        return 1000 * gap * gap + abs(distance - ideal)

    worst = max((cost(a, b) for a in order for b in order if a != b), default=0)
    new_pair = (worst + 1) * (len(order) // 2 + 1)
    edges = [
        (a, b, new_pair * (frozenset((a, b)) not in met) + worst + 1 - cost(a, b))
        for i, a in enumerate(order)
        for b in order[i + 1 :]
    ]
    matching = max_weight_matching(order, edges)
    pairs = [(a, b) if position[a] < position[b] else (b, a) for a, b in matching]
    return sorted(pairs, key=lambda pair: position[pair[0]])


def max_weight_matching(
    nodes: Sequence[int], edges: Sequence[tuple[int, int, int]]
) -> set[tuple[int, int]]:
    """The pairs of a maximum-cardinality, then maximum-weight matching (networkx's
    blossom algorithm) of `nodes` over the weighted `edges`."""
    # networkx takes 0.3 s to import: only the pairings that need a blossom pay it, not
    # every process that imports the formats (`agon tournament --help`, the web pages).
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_weighted_edges_from(edges)
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return matching


def _counts(values: Mapping[int, int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for value in values.values():
        counts[value] = counts.get(value, 0) + 1
    return counts
