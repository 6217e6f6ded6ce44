"""Tie-breaks on a hand-worked crosstable (four players, three rounds, one game a round):

    round 1: A beats B, C draws D     points: A 2.5, B 1.5, C 1.5, D 0.5
    round 2: A draws C, B beats D
    round 3: A beats D, B draws C

Buchholz = the opponents' points: A 1.5+1.5+0.5 = 3.5, B 2.5+0.5+1.5 = 4.5, C 0.5+2.5+1.5 =
4.5, D 1.5+1.5+2.5 = 5.5; cut 1 drops the lowest: 3.0, 4.0, 4.0, 4.0. Sonneborn-Berger =
opponents' points times the score against them: A 1.5+0.75+0.5 = 2.75, B 0.5+0.75 = 1.25,
C 0.25+1.25+0.75 = 2.25, D 0.75. B and C are level on points and Buchholz; C is second on
Sonneborn-Berger."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from competition.formats.core import Result, ScheduledGame, game_points
from competition.formats.standings import TIEBREAKS, pairwise_points, rank_standings
from competition.formats.swiss import Swiss
from tests.competition.formats.support import play_out, random_results

A, B, C, D = range(4)


def game(round_: int, white: int, black: int, ranks: tuple[int, int]) -> Result:
    return Result(ScheduledGame(round_, f"{white}-{black}", 0, (white, black), 0), ranks)


CROSSTABLE = [
    game(1, A, B, (1, 2)),
    game(1, C, D, (1, 1)),
    game(2, A, C, (1, 1)),
    game(2, B, D, (1, 2)),
    game(3, A, D, (1, 2)),
    game(3, B, C, (1, 1)),
]


def test_fide_tiebreaks_on_a_worked_example() -> None:
    standings = {s.bot: s for s in rank_standings(4, CROSSTABLE, TIEBREAKS)}
    assert [standings[b].points for b in (A, B, C, D)] == [2.5, 1.5, 1.5, 0.5]
    assert [standings[b].tiebreaks["buchholz"] for b in (A, B, C, D)] == [3.5, 4.5, 4.5, 5.5]
    assert [standings[b].tiebreaks["buchholz_cut1"] for b in (A, B, C, D)] == [3, 4, 4, 4]
    assert [standings[b].tiebreaks["sonneborn_berger"] for b in (A, B, C, D)] == [
        2.75,
        1.25,
        2.25,
        0.75,
    ]
    assert (
        standings[B].tiebreaks["direct_encounter"]
        == standings[C].tiebreaks["direct_encounter"]
        == 0.5
    )
    assert [standings[b].tiebreaks["wins"] for b in (A, B, C, D)] == [2, 1, 0, 0]
    assert [standings[b].rank for b in (A, C, B, D)] == [1, 2, 3, 4]


def test_a_bye_counts_a_virtual_opponent_on_the_bots_own_points() -> None:
    bye = Result(ScheduledGame(4, "bye-3", 0, (D,), 0), (1,))
    standings = {s.bot: s for s in rank_standings(4, [*CROSSTABLE, bye], TIEBREAKS)}
    assert standings[D].points == 1.5
    assert standings[D].tiebreaks["buchholz"] == 5.5 + 1.5
    assert standings[D].tiebreaks["wins"] == 0


def test_bots_equal_on_everything_share_a_rank() -> None:
    drawn = [game(1, A, B, (1, 1))]
    assert [s.rank for s in rank_standings(2, drawn, TIEBREAKS)] == [1, 1]


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 12), st.integers(1, 5), st.integers(2, 4), st.integers(0, 10**6))
def test_the_standings_hold_every_point_played(
    entrants: int, rounds: int, players: int, seed: int
) -> None:
    swiss = Swiss(max(entrants, players), seed, rounds, players)
    results = play_out(swiss, random_results(seed))
    played = sum(sum(game_points(r.ranks)) for r in results)
    assert abs(sum(s.points for s in swiss.standings(results)) - played) < 1e-9


def test_pairwise_points_are_each_pairs_score_and_games_from_both_sides() -> None:
    met = pairwise_points(CROSSTABLE)
    assert met[(A, B)] == (1.0, 1) and met[(B, A)] == (0.0, 1)
    assert met[(C, D)] == met[(D, C)] == (0.5, 1)
    assert len(met) == 12  # every ordered pair of four bots met once


def test_pairwise_points_at_a_table_of_three_count_half_a_point_an_opponent() -> None:
    table = Result(ScheduledGame(1, "0-1-2", 0, (0, 1, 2), 0), (1, 2, 2))
    met = pairwise_points([table, table])
    assert met[(0, 1)] == met[(0, 2)] == (1.0, 2)
    assert met[(1, 2)] == (0.5, 2) and met[(1, 0)] == (0.0, 2)
