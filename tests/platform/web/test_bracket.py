"""The knockout bracket as SVG: every table in place from the first round, what the results
decided marked, hostile names escaped, long ones cut with the whole name in a tooltip."""

from __future__ import annotations

import re

from agon.web.bracket import NAME_CHARS, bracket_layout, bracket_svg, points_text, stage_titles
from competition.formats.core import Result, ScheduledGame
from competition.formats.knockout import Knockout
from tests.competition.formats.support import play_out, ranks_by, stronger_wins

NAMES = [f"bot{i}" for i in range(16)]


def states(knockout: Knockout, results: list[Result], name: str) -> list[tuple[int | None, str]]:
    box = next(box for box in bracket_layout(knockout, results).boxes if box.name == name)
    return [(row.bot, row.state) for row in box.rows]


def test_a_bracket_before_any_game_has_every_round_with_the_byes_through() -> None:
    knockout = Knockout(6, 1)
    layout = bracket_layout(knockout, [])
    assert [box.name for box in layout.boxes] == [
        "R1.1", "R1.2", "R1.3", "R1.4", "R2.1", "R2.2", "R3"
    ]  # fmt: skip
    assert [label.text for label in layout.labels] == ["Quarter-finals", "Semi-finals", "Final"]
    assert states(knockout, [], "R1.1") == [(0, "through"), (None, "bye")]
    assert states(knockout, [], "R1.2") == [(3, "playing"), (4, "playing")]
    assert states(knockout, [], "R3") == [(None, "waiting"), (None, "waiting")]
    assert len(layout.links) == 6  # four first-round tables into two, two into one


def test_each_round_sits_between_the_two_ties_that_feed_it() -> None:
    layout = bracket_layout(Knockout(8, 1), [])
    middle = {box.name: box.y + box.height / 2 for box in layout.boxes}
    assert middle["R2.1"] == (middle["R1.1"] + middle["R1.2"]) / 2
    assert middle["R3"] == (middle["R2.1"] + middle["R2.2"]) / 2


def test_a_played_bracket_marks_who_went_through_and_who_went_out() -> None:
    knockout = Knockout(8, 1)
    results = play_out(knockout, stronger_wins)
    assert states(knockout, results, "R3") == [(0, "through"), (1, "out")]
    final = next(box for box in bracket_layout(knockout, results).boxes if box.name == "R3")
    assert [row.points for row in final.rows] == ["2", "0"]


def test_a_tie_being_played_shows_its_points_and_one_not_started_none() -> None:
    knockout = Knockout(4, 1)
    first_game = knockout.next_games([])[0]
    results = [Result(first_game, stronger_wins(first_game))]
    boxes = {box.name: box for box in bracket_layout(knockout, results).boxes}
    assert [row.points for row in boxes[first_game.tie].rows] == ["1", "0"]
    assert {row.state for row in boxes[first_game.tie].rows} == {"playing"}
    other = "R1.2" if first_game.tie == "R1.1" else "R1.1"
    assert [row.points for row in boxes[other].rows] == ["", ""]


def test_double_elimination_draws_the_winners_bracket_then_the_losers() -> None:
    knockout = Knockout(8, 1, double=True)
    layout = bracket_layout(knockout, [])
    sections = [label.text for label in layout.labels if label.kind == "section"]
    assert sections == ["Winners' bracket", "Losers' bracket"]
    columns = [label.text for label in layout.labels if label.kind == "column"]
    assert columns[:5] == ["Round 1", "Round 2", "Winners' final", "Grand final", "Round 1"]
    assert columns[-1] == "Losers' final"
    winners_bottom = max(box.y + box.height for box in layout.boxes if box.name[0] in "WG")
    assert min(box.y for box in layout.boxes if box.name.startswith("L")) > winners_bottom


def test_a_grand_final_reset_gets_its_own_column() -> None:
    def upset_in_the_final(game: ScheduledGame) -> tuple[int, ...]:
        if game.tie == "GF":
            return ranks_by(sorted(range(2), key=lambda seat: -game.bots[seat]))
        return stronger_wins(game)

    knockout = Knockout(4, 1, double=True)
    results = play_out(knockout, upset_in_the_final)
    layout = bracket_layout(knockout, results)
    assert "Grand final, reset" in [label.text for label in layout.labels]
    assert states(knockout, results, "GF2") == [(0, "through"), (1, "out")]


def test_heats_are_columns_of_tables_without_connectors() -> None:
    knockout = Knockout(13, 1, players=4)
    layout = bracket_layout(knockout, play_out(knockout, stronger_wins))
    assert [label.text for label in layout.labels] == ["Heat 1", "Heat 2", "Final"]
    assert [len(box.rows) for box in layout.boxes] == [3, 3, 3, 4, 3, 2, 2]
    assert layout.links == ()


def test_hostile_names_are_escaped_and_long_ones_cut_with_the_whole_name_in_a_tooltip() -> None:
    hostile = "<script>alert('x')</script>"
    long = "Themistokles the Unbeatable of Athens"
    svg = bracket_svg(Knockout(3, 1), [], [hostile, long, "c"], links={"R1.2": "/t/?a=1&b=2"})
    assert "<script>" not in svg
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in svg
    cut = long[: NAME_CHARS - 1] + "…"
    assert f">{cut}</text>" in svg
    assert f"<title>{long} (seed 2)</title>" in svg
    assert '<a href="/t/?a=1&amp;b=2">' in svg


def test_the_svg_keeps_its_natural_size_to_scroll_on_a_phone() -> None:
    svg = bracket_svg(Knockout(16, 1), [], NAMES)
    size = re.search(r'width="(\d+)" height="(\d+)"', svg)
    assert size is not None
    width, height = (float(value) for value in size.groups())
    assert width > 390 and height > 16 * 24
    assert f'viewBox="0 0 {width:.0f} {height:.0f}"' in svg


def test_points_read_as_people_write_them() -> None:
    assert [points_text(p) for p in (2.0, 1.5, 7 / 3, 0.0)] == ["2", "1.5", "2.33", "0"]


def test_stages_have_titles_that_stand_alone_in_a_list_of_games() -> None:
    assert stage_titles(Knockout(8, 1), []) == {1: "Quarter-finals", 2: "Semi-finals", 3: "Final"}
    double = stage_titles(Knockout(4, 1, double=True), [])
    assert list(double.values()) == [
        "Winners' round 1", "Losers' round 1", "Winners' final", "Losers' final", "Grand final"
    ]  # fmt: skip
    assert stage_titles(Knockout(9, 1, players=3), []) == {1: "Heat 1", 2: "Final"}
