"""The cross-table of a round robin: rows and columns in standings order."""

from __future__ import annotations

from agon.web.cross_table import cross_table
from competition.formats.core import Result, ScheduledGame
from competition.formats.round_robin import RoundRobin
from tests.competition.formats.support import play_out, stronger_wins


def test_rows_and_columns_follow_the_standings_with_each_pairs_points() -> None:
    event = RoundRobin(4, 1)
    results = play_out(event, stronger_wins)
    rows = cross_table(event.standings(results), results)
    assert [row.standing.bot for row in rows] == [0, 1, 2, 3]
    assert [row.number for row in rows] == [1, 2, 3, 4]
    assert [cell.text for cell in rows[0].cells] == ["", "2", "2", "2"]
    assert [cell.text for cell in rows[3].cells] == ["0", "0", "0", ""]


def test_a_pair_not_met_yet_is_not_a_zero() -> None:
    event = RoundRobin(3, 1)
    first = event.next_games([])[:2]  # one pair of games
    results = [Result(game, stronger_wins(game)) for game in first]
    rows = {row.standing.bot: row for row in cross_table(event.standings(results), results)}
    a, b = sorted(first[0].bots)
    (c,) = set(range(3)) - {a, b}
    by_opponent = {cell.opponent: cell for cell in rows[b].cells}
    assert by_opponent[a].text == "0" and by_opponent[a].games == 2
    assert by_opponent[c].text == "·" and by_opponent[c].games == 0


def test_tables_of_three_show_pairwise_shares() -> None:
    event = RoundRobin(3, 1, players=3)
    table = ScheduledGame(1, "0-1-2", 0, (0, 1, 2), 0)
    results = [Result(table, (1, 2, 3))]
    rows = cross_table(event.standings(results), results)
    assert [cell.text for cell in rows[1].cells] == ["0", "", "0.5"]
