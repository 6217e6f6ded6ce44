from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.formats.round_robin import RoundRobin, circle_rounds
from tests.competition.formats.support import play_out, random_results, stronger_wins


@given(st.integers(2, 21))
def test_the_circle_method_meets_every_pair_once_in_disjoint_rounds(entrants: int) -> None:
    rounds = circle_rounds(entrants)
    assert len(rounds) == entrants - 1 + entrants % 2
    pairs = [frozenset(p) for r in rounds for p in r]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, combinations(range(entrants), 2)))
    for round_ in rounds:
        seated = [bot for pair in round_ for bot in pair]
        assert len(seated) == len(set(seated))


@settings(deadline=None)
@given(st.integers(2, 9), st.integers(2, 5), st.integers(1, 2))
def test_every_pair_meets_equally_often_and_every_bot_sits_in_every_seat_equally(
    entrants: int, players: int, meetings: int
) -> None:
    if entrants < players:
        return
    games = RoundRobin(entrants, 1, players, meetings).schedule()
    pair_counts = Counter(frozenset(p) for g in games for p in combinations(g.bots, 2))
    assert len(pair_counts) == entrants * (entrants - 1) // 2
    assert len(set(pair_counts.values())) == 1
    seats = Counter((bot, seat) for g in games for seat, bot in enumerate(g.bots))
    assert len(set(seats.values())) == 1 and len(seats) == entrants * players


def test_the_strongest_bot_wins_every_game_and_the_standings_follow_strength() -> None:
    tournament = RoundRobin(6, seed=3)
    standings = tournament.standings(play_out(tournament, stronger_wins))
    assert [s.bot for s in standings] == [0, 1, 2, 3, 4, 5]
    assert standings[0].points == 10


def test_the_same_seed_gives_the_same_schedule_and_another_seed_other_seeds() -> None:
    assert RoundRobin(5, 1).schedule() == RoundRobin(5, 1).schedule()
    first = {g.seed for g in RoundRobin(5, 1).schedule()}
    assert first.isdisjoint(g.seed for g in RoundRobin(5, 2).schedule())


def test_nothing_is_left_once_every_game_is_played() -> None:
    tournament = RoundRobin(4, 1, players=3)
    results = play_out(tournament, random_results(1))
    assert tournament.next_games(results) == []
    assert len(results) == 4 * 3  # C(4, 3) tables, a meeting of three games each


def test_it_refuses_a_field_too_large_for_tables() -> None:
    with pytest.raises(ValueError, match="Swiss"):
        RoundRobin(30, 1, players=4)


def test_the_kept_schedule_is_not_changed_by_what_a_caller_does_with_its_copy() -> None:
    schedule = RoundRobin(6, 7).schedule()
    schedule.clear()
    assert len(RoundRobin(6, 7).schedule()) == 30
    assert RoundRobin(6, 7).next_games([]) == RoundRobin(6, 7).schedule()
