from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from competition.formats.core import Result, ScheduledGame
from competition.version_pairing import BASELINE, CANDIDATE, leg_score, pair_legs


def test_two_players_play_a_pair_of_games_with_the_seats_swapped() -> None:
    (first,), (second,) = pair_legs(0, seed=3, players=2)
    assert (first.bots, second.bots) == ((CANDIDATE, BASELINE), (BASELINE, CANDIDATE))
    assert first.seed == second.seed
    assert leg_score([Result(first, (1, 2))]) == 1.0
    assert leg_score([Result(second, (1, 2))]) == 0.0


@given(st.integers(3, 6), st.integers(0, 1000), st.integers(0, 10**6))
def test_mirrored_tables_differ_only_in_the_version(players: int, number: int, seed: int) -> None:
    for candidate_game, baseline_game in pair_legs(number, seed, players):
        assert candidate_game.seed == baseline_game.seed
        assert BASELINE not in candidate_game.bots and CANDIDATE not in baseline_game.bots
        swapped = [BASELINE if bot == CANDIDATE else bot for bot in candidate_game.bots]
        assert tuple(swapped) == baseline_game.bots
        assert len(candidate_game.bots) == players


@given(st.integers(3, 6), st.integers(0, 10**6))
def test_the_versions_go_round_every_seat_evenly(players: int, seed: int) -> None:
    seats = Counter(
        legs[0].bots.index(CANDIDATE)
        for number in range(players)
        for legs in pair_legs(number, seed, players)
    )
    assert seats == dict.fromkeys(range(players), 2)


def test_a_leg_goes_to_the_version_with_more_points() -> None:
    candidate_game, baseline_game = pair_legs(0, seed=1, players=3)[0]

    def leg(candidate_ranks: tuple[int, ...], baseline_ranks: tuple[int, ...]) -> float:
        return leg_score(
            [Result(candidate_game, candidate_ranks), Result(baseline_game, baseline_ranks)]
        )

    seat = candidate_game.bots.index(CANDIDATE)
    first, last = [3, 3, 3], [1, 1, 1]
    first[seat], last[seat] = 1, 3
    assert leg(tuple(first), tuple(last)) == 1.0
    assert leg(tuple(last), tuple(first)) == 0.0
    assert leg(tuple(first), tuple(first)) == 0.5


def test_the_games_of_different_pairs_are_different_games() -> None:
    games: list[ScheduledGame] = [
        g for n in range(4) for leg in pair_legs(n, seed=1, players=4) for g in leg
    ]
    assert len(set(games)) == len(games) == 16
