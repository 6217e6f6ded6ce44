from __future__ import annotations

from collections import Counter
from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from competition.formats.core import Result, ScheduledGame
from competition.formats.swiss import Swiss, pair_by_score
from tests.competition.formats.support import draws, play_out, random_results, stronger_wins


def first_games(games: list[ScheduledGame]) -> set[tuple[int, ...]]:
    return {g.bots for g in games if g.index == 0 and not g.is_bye}


def test_round_one_pairs_the_top_half_against_the_bottom_half() -> None:
    # The Dutch system's first round for eight players: 1-5, 2-6, 3-7, 4-8.
    assert first_games(Swiss(8, 1, rounds=3).next_games([])) == {(0, 4), (1, 5), (2, 6), (3, 7)}


def test_round_two_pairs_within_score_groups() -> None:
    # Seeds 1-4 won: winners 1-3 and 2-4, losers 5-7 and 6-8.
    swiss = Swiss(8, 1, rounds=3)
    results = [Result(g, stronger_wins(g)) for g in swiss.next_games([])]
    assert first_games(swiss.next_games(results)) == {(0, 2), (1, 3), (4, 6), (5, 7)}


def test_tables_mix_the_tables_of_the_round_before() -> None:
    # Eight bots at two tables of four, all drawn: in order of score (then seed) the tables
    # would be the same again; two bots from each round-1 table at each table is the best
    # there is, four pairs meeting again.
    swiss = Swiss(8, 1, rounds=2, players=4)
    results = [Result(g, draws(g)) for g in swiss.next_games([])]
    round_one = {frozenset(g.bots) for g in swiss.next_games([]) if g.index == 0}
    tables = [g.bots for g in swiss.next_games(results) if g.index == 0]
    again = sum(
        any({a, b} <= table for table in round_one)
        for bots in tables
        for i, a in enumerate(bots)
        for b in bots[i + 1 :]
    )
    assert again == 4


def test_it_avoids_a_rematch_even_across_score_groups() -> None:
    # 0 and 1 have met and lead alone; they are paired down instead.
    met = {frozenset((0, 1))}
    pairs = pair_by_score([0, 1, 2, 3], [2, 2, 0, 0], met)
    assert frozenset((0, 1)) not in {frozenset(p) for p in pairs}


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 14), st.integers(0, 10**6))
def test_no_rematch_while_one_is_avoidable(entrants: int, seed: int) -> None:
    # While fewer than half the opponents have been met, an unmet opponent is always free
    # (Dirac's theorem), so a rematch would be a pairing fault.
    rounds = max(1, (entrants - 1) // 2)
    results = play_out(Swiss(entrants, seed, rounds), random_results(seed))
    meetings = Counter(
        frozenset(g.bots) for g in (r.game for r in results) if g.index == 0 and not g.is_bye
    )
    assert set(meetings.values()) == {1}


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 11), st.integers(2, 4), st.integers(0, 10**6))
def test_byes_go_once_to_each_bot_at_most(entrants: int, players: int, seed: int) -> None:
    entrants = max(entrants, players)
    rounds = min(8, entrants // (entrants % players or 1))  # before every bot has had one
    results = play_out(Swiss(entrants, seed, rounds, players), random_results(seed))
    byes = Counter(r.game.bots[0] for r in results if r.game.is_bye and r.game.index == 0)
    assert set(byes.values()) <= {1}


@settings(max_examples=20, deadline=None)
@given(st.integers(3, 10), st.integers(2, 4), st.integers(0, 10**6))
def test_seats_are_balanced_in_every_round(entrants: int, players: int, seed: int) -> None:
    results = play_out(Swiss(max(entrants, players), seed, 3, players), random_results(seed))
    seats = Counter(
        (r.game.bots[s], s) for r in results if not r.game.is_bye for s in range(players)
    )
    for bot in {bot for bot, _ in seats}:
        assert len({seats[(bot, s)] for s in range(players)}) == 1


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 12), st.integers(0, 10**6), st.randoms(use_true_random=False))
def test_the_pairings_depend_on_the_results_not_their_order(
    entrants: int, seed: int, rng: Random
) -> None:
    swiss = Swiss(entrants, seed, 3)
    results = play_out(swiss, random_results(seed))
    shuffled = list(results)
    rng.shuffle(shuffled)
    assert swiss.standings(shuffled) == swiss.standings(results)
    partial = [r for r in shuffled if r.game.round < 3]
    assert sorted(swiss.next_games(partial)) == sorted(swiss.next_games(partial[::-1]))


def test_the_best_bot_wins_when_the_stronger_always_wins() -> None:
    swiss = Swiss(16, 2, rounds=4)
    standings = swiss.standings(play_out(swiss, stronger_wins))
    assert standings[0].bot == 0 and standings[0].points == 8
