from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from competition.formats.core import ScheduledGame, deal_seed, game_points, meeting, rotations


def test_two_players_score_one_half_or_nothing() -> None:
    assert game_points((1, 2)) == [1.0, 0.0]
    assert game_points((1, 1)) == [0.5, 0.5]
    assert game_points((2, 1)) == [0.0, 1.0]


def test_a_table_shares_half_a_point_per_seat() -> None:
    assert game_points((1, 2, 2, 4)) == [1.0, 0.5, 0.5, 0.0]


@given(st.lists(st.integers(1, 6), min_size=2, max_size=6))
def test_the_points_of_a_table_add_up_to_half_its_seats(ranks: list[int]) -> None:
    assert abs(sum(game_points(ranks)) - len(ranks) / 2) < 1e-9


@given(st.integers(2, 6))
def test_a_meeting_seats_every_bot_once_in_every_seat(players: int) -> None:
    seatings = rotations(list(range(10, 10 + players)))
    for seat in range(players):
        assert sorted(s[seat] for s in seatings) == list(range(10, 10 + players))


def test_the_games_of_a_meeting_share_a_seed_and_swap_seats() -> None:
    first, second = meeting(1, "t", (3, 5), seed=7)
    assert (first.bots, second.bots) == ((3, 5), (5, 3))
    assert first.seed == second.seed
    assert meeting(1, "t", (3, 5), seed=7, number=1)[0].seed != first.seed


def test_a_meeting_seed_depends_on_the_event_seed_its_tie_and_its_number() -> None:
    seeds = {
        meeting(1, tie, (0, 1), seed, number)[0].seed
        for seed in (1, 2)
        for tie in ("a", "b", "a:0")
        for number in (0, 1)
    }
    assert len(seeds) == 12 and all(0 <= seed < 2**64 for seed in seeds)


def test_a_game_is_known_by_its_place_and_seats_not_by_its_seed() -> None:
    """A tournament stored with the seeds of an earlier derivation goes on: its results
    are the games the format asks for."""
    game = ScheduledGame(2, "0-1", 1, (1, 0), seed=7)
    assert game == ScheduledGame(2, "0-1", 1, (1, 0), seed=8)
    assert game in {ScheduledGame(2, "0-1", 1, (1, 0), seed=8)}
    assert game != ScheduledGame(2, "0-1", 1, (0, 1), seed=7)
    assert deal_seed(game) != deal_seed(ScheduledGame(2, "0-1", 1, (1, 0), seed=8))
