"""Two-player Swiss pairing by score groups (issue 24), held against blossom matchings over
every pair of the field: what the rounds guarantee, not how the pairing finds it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from random import Random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.formats.core import Result, ScheduledGame
from competition.formats.standings import points_by_bot
from competition.formats.swiss import Swiss
from competition.formats.swiss_pairing import pair_by_score, pair_on_complete_graph
from tests.competition.formats.support import random_results

Pair = tuple[int, int]


def fresh_graph(bots: Sequence[int], met: set[frozenset[int]]) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from(bots)
    graph.add_edges_from(
        (a, b) for i, a in enumerate(bots) for b in bots[i + 1 :] if frozenset((a, b)) not in met
    )
    return graph


def fewest_rematches(order: Sequence[int], met: set[frozenset[int]]) -> int:
    """The oracle: a maximum matching over every pair that has not met."""
    return len(order) // 2 - len(nx.max_weight_matching(fresh_graph(order, met), True))


def most_pairs_within(
    bracket: Sequence[int], below: Sequence[int], met: set[frozenset[int]]
) -> int:
    """The oracle: the most pairs within `bracket` of any pairing of it and `below` without
    a rematch."""
    graph = fresh_graph([*bracket, *below], met)
    inside = set(bracket)
    for a, b in graph.edges:
        graph.edges[a, b]["weight"] = int(a in inside and b in inside)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    assert 2 * len(matching) == len(bracket) + len(below)
    return sum(a in inside and b in inside for a, b in matching)


def brackets(
    order: Sequence[int], points: Sequence[float], pairs: Sequence[Pair]
) -> list[tuple[list[int], list[int], int]]:
    """Per score group from the top: its bracket (the bots left unpaired by the brackets
    above, then the group), the bots below it, and the pairs made within the bracket."""
    found = []
    floaters: list[int] = []
    start = 0
    while start < len(order):
        end = start
        while end < len(order) and points[order[end]] == points[order[start]]:
            end += 1
        bracket = [*floaters, *order[start:end]]
        inside = set(bracket)
        within = [pair for pair in pairs if set(pair) <= inside]
        paired = {bot for pair in within for bot in pair}
        floaters = [bot for bot in bracket if bot not in paired]
        found.append((bracket, list(order[end:]), len(within)))
        start = end
    return found


def assert_a_round_as_promised(
    order: Sequence[int], points: Sequence[float], met: set[frozenset[int]]
) -> list[Pair]:
    pairs = pair_by_score(order, points, met)
    assert sorted(bot for pair in pairs for bot in pair) == sorted(order)
    position = {bot: place for place, bot in enumerate(order)}
    assert all(position[a] < position[b] for a, b in pairs)
    rematches = sum(frozenset(pair) in met for pair in pairs)
    assert rematches == fewest_rematches(order, met)
    if rematches == 0:
        for bracket, below, within in brackets(order, points, pairs):
            assert within == most_pairs_within(bracket, below, met), bracket
    return pairs


def test_round_one_of_a_large_field_is_the_dutch_split() -> None:
    order = list(range(256))
    pairs = pair_by_score(order, [0.0] * 256, set())
    assert pairs == [(bot, bot + 128) for bot in range(128)]


def test_a_floater_meets_the_top_of_the_group_below() -> None:
    points = [2.0, 1.0, 1.0, 1.0, 1.0, 0.0]
    assert pair_by_score(range(6), points, set()) == [(0, 1), (2, 3), (4, 5)]
    assert pair_by_score(range(6), points, {frozenset((0, 1))}) == [(0, 2), (1, 3), (4, 5)]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 8), min_size=1, max_size=20))
def test_with_no_meetings_each_group_is_split_in_halves_after_its_floater(
    scores: list[int],
) -> None:
    # The Dutch ideal, written out: a bot floated down from an odd group above meets the
    # top of the group below, the rest of the group meets top half against bottom half,
    # and an odd group's lowest floats on.
    scores = sorted(scores + scores[-1:] * (len(scores) % 2), reverse=True)
    points = [score / 2 for score in scores]
    order = list(range(len(scores)))
    expected: list[Pair] = []
    floater: list[int] = []
    for score in sorted(set(scores), reverse=True):
        group = floater + [bot for bot in order if scores[bot] == score]
        if floater:
            expected.append((group[0], group[1]))
            group = group[2:]
        half = len(group) // 2
        expected += [(group[i], group[i + half]) for i in range(half)]
        floater = group[2 * half :]
    assert pair_by_score(order, points, set()) == expected


def test_a_group_pairs_in_full_when_its_ideal_pairs_would_float_two_bots() -> None:
    # The ideal 0-2 would leave 1 and 3, who have met: 0-3 and 1-2 keep the group whole.
    points = [1.0] * 4 + [0.0] * 4
    pairs = pair_by_score(range(8), points, {frozenset((1, 3))})
    assert pairs == [(0, 3), (1, 2), (4, 6), (5, 7)]


def test_a_rematch_comes_only_when_none_can_be_avoided() -> None:
    # Four bots that have all met but 0-3 and 1-2: those are the pairs.
    met = {frozenset(p) for p in [(0, 1), (0, 2), (1, 3), (2, 3)]}
    assert pair_by_score(range(4), [1.0, 1.0, 0.0, 0.0], met) == [(0, 3), (1, 2)]
    # Two threes that have met within themselves (and 0-3) pair across, no rematch.
    met = {frozenset(p) for p in [(0, 1), (0, 2), (1, 2), (3, 4), (3, 5), (4, 5), (0, 3)]}
    assert not {frozenset(p) for p in pair_by_score(range(6), [0.0] * 6, met)} & met
    # Four bots that have all met but 0-1: one rematch, not two.
    met = {frozenset((a, b)) for a in range(4) for b in range(4) if a != b} - {frozenset((0, 1))}
    pairs = pair_by_score(range(4), [0.0] * 4, met)
    assert sum(frozenset(p) in met for p in pairs) == 1 and (0, 1) in pairs


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 10), st.integers(0, 12), st.randoms(use_true_random=False))
def test_a_random_field_is_paired_as_promised(half: int, most_met: int, rng: Random) -> None:
    # Any field, scores and meetings, dense ones too: the rounds where a rematch is forced
    # and where the bottom of the field pairs only if the brackets above leave the right
    # bots, which played-out events seldom reach.
    size = 2 * half
    points = sorted((rng.randrange(6) / 2 for _ in range(size)), reverse=True)
    order = list(range(size))
    met = {
        frozenset((a, b))
        for a in order
        for b in rng.sample(order, min(size, rng.randrange(most_met + 1)))
        if a != b
    }
    assert_a_round_as_promised(order, points, met)


def state_before(
    swiss: Swiss, round_: int, results: Sequence[Result]
) -> tuple[list[int], list[float], set[frozenset[int]]]:
    """The order, points and meetings `Swiss.pair_round` pairs `round_` from (byes out)."""
    earlier = [r for r in results if r.game.round < round_]
    points = points_by_bot(swiss.entrants, earlier)
    byes = {g.bots[0] for g in swiss.pair_round(round_, results) if g.is_bye}
    order = sorted(
        (bot for bot in range(swiss.entrants) if bot not in byes),
        key=lambda bot: (-round(points[bot], 9), bot),
    )
    met = {frozenset(r.game.bots) for r in earlier if not r.game.is_bye}
    return order, points, met


def play_checking_every_round(swiss: Swiss, seed: int) -> list[Result]:
    """Play `swiss` to its end, holding each round's pairing against the oracles."""
    decide = random_results(seed)
    results: list[Result] = []
    while games := swiss.next_games(results):
        round_ = games[0].round
        assert {g.round for g in games} == {round_}
        order, points, met = state_before(swiss, round_, results)
        assert_a_round_as_promised(order, points, met)
        seated = Counter(bot for g in games if g.index == 0 for bot in g.bots)
        assert set(seated) == set(range(swiss.entrants)) and set(seated.values()) == {1}
        results += [Result(g, (1,) if g.is_bye else decide(g)) for g in games]
    assert max(r.game.round for r in results) == swiss.rounds
    return results


@settings(max_examples=25, deadline=None)
@given(st.integers(8, 64), st.integers(5, 9), st.integers(0, 10**6))
def test_every_round_of_a_played_swiss_is_paired_as_promised(
    entrants: int, rounds: int, seed: int
) -> None:
    play_checking_every_round(Swiss(entrants, seed, rounds), seed)


@pytest.mark.parametrize("entrants", range(2, 41))
def test_a_swiss_plays_to_its_end_with_byes_once_each_while_they_last(entrants: int) -> None:
    rounds = min(entrants + 2, 10)
    results = play_checking_every_round(Swiss(entrants, entrants, rounds), entrants)
    byes = Counter(r.game.bots[0] for r in results if r.game.is_bye and r.game.index == 0)
    assert sum(byes.values()) == rounds * (entrants % 2)
    assert max(byes.values(), default=1) - min(byes.values(), default=1) <= 1
    if rounds <= entrants:
        assert set(byes.values()) <= {1}


def test_a_swiss_of_two_meetings_plays_each_pair_twice_a_round_and_never_again() -> None:
    swiss = Swiss(24, 5, rounds=7, meetings=2)
    results = play_checking_every_round(swiss, 5)
    tables = Counter((r.game.round, r.game.tie) for r in results)
    assert set(tables.values()) == {4}
    pairs = Counter(frozenset(r.game.bots) for r in results if r.game.index == 0)
    assert set(pairs.values()) == {1}


def test_the_same_results_give_the_same_pairing_whatever_their_order() -> None:
    rng = Random(3)
    order = list(range(40))
    points = sorted((rng.randrange(8) / 2 for _ in order), reverse=True)
    met_list = [frozenset(rng.sample(order, 2)) for _ in range(120)]
    first = pair_by_score(order, points, set(met_list))
    rng.shuffle(met_list)
    assert pair_by_score(order, points, set(reversed(met_list))) == first


@pytest.mark.parametrize(("players", "meetings"), [(2, 1), (2, 2), (4, 1)])
def test_next_games_pairs_one_round_a_call(
    players: int, meetings: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pairing the earlier rounds again on every call cost 40 s a call at 256 bots.
    calls: list[int] = []
    pair_round = Swiss.pair_round

    def counted(self: Swiss, round_: int, results: Sequence[Result]) -> list[ScheduledGame]:
        calls.append(round_)
        return pair_round(self, round_, results)

    monkeypatch.setattr(Swiss, "pair_round", counted)
    swiss = Swiss(11, 4, rounds=6, players=players, meetings=meetings)
    decide = random_results(4)
    results: list[Result] = []
    for round_ in range(1, 7):
        games = swiss.next_games(results)
        assert calls == [round_]
        half = len(games) // 2
        results += [Result(g, (1,) if g.is_bye else decide(g)) for g in games[:half]]
        calls.clear()
        assert swiss.next_games(results) == games[half:]
        assert calls == [round_]
        results += [Result(g, (1,) if g.is_bye else decide(g)) for g in games[half:]]
        calls.clear()
    assert swiss.next_games(results) == []
    assert calls == []


def test_the_complete_graph_pairing_still_pairs_when_rematches_are_forced() -> None:
    everyone = {frozenset((a, b)) for a in range(6) for b in range(6) if a != b}
    pairs = pair_on_complete_graph(range(6), [0.0] * 6, everyone)
    assert sorted(bot for pair in pairs for bot in pair) == list(range(6))
