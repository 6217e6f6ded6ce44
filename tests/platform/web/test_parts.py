"""The pieces of the pages: rating charts, score breakdowns, board renderers, rendered
documents."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.staticfiles import finders

from agon.ladders.models import RatingChange
from agon.web.breakdown import breakdown
from agon.web.charts import Dot, Plot, line_chart, rating_chart
from agon.web.docs import render_markdown
from agon.web.games import board_renderer
from engine.bots import builtin_bot
from engine.match import play_match
from engine.registry import game_ids, get_spec


def change(match_id: int, before: float, after: float, provisional: bool) -> RatingChange:
    return RatingChange(
        match_id=match_id, before=before, after=after, provisional=provisional, ladder_id=1
    )


def test_a_chart_has_a_point_per_rating_and_a_dot_per_match() -> None:
    changes = [
        change(1, 1500, 1516, True),
        change(2, 1516, 1490, True),
        change(3, 1490, 1503, False),
    ]
    chart = rating_chart(changes, title="Rating of x", chart_id="c1")
    points = chart.split('points="')[1].split('"')[0].split()
    assert len(points) == 4
    assert chart.count("<circle") == 3
    assert chart.count('class="dot provisional"') == 2
    shown = f"match 2: {changes[1].shown_before} → {changes[1].shown_after} (provisional)"
    assert shown in chart  # "match 2: 1516 → 1490 (provisional)" with the Elo
    assert '<title id="c1-t">Rating of x</title>' in chart
    assert 'role="img"' in chart


def test_a_chart_of_one_flat_change_still_has_a_scale() -> None:
    chart = rating_chart([change(1, 1500, 1500, False)], title="t", chart_id="c")
    assert chart.count('class="tick"') >= 3
    assert rating_chart([], title="t", chart_id="c") == ""


def test_the_chart_skeleton_escapes_every_text_it_is_given() -> None:
    hostile = '<script>x</script> & "q"'
    chart = line_chart(
        Plot([1.0, 3.0, 2.0], 0.0, 4.0),
        title=hostile,
        description=hostile,
        chart_id="c",
        grid=[(0.0, hostile), (4.0, "4")],
        x_ticks=[(1, hostile)],
        caption=hostile,
        dots=[Dot(2, hostile)],
    )
    assert "<script>" not in chart and "&lt;script&gt;x&lt;/script&gt; &amp; &quot;q&quot;" in chart
    assert chart.count("&lt;script&gt;") == 6, "title, description, grid, tick, caption, dot"
    assert chart.startswith('<svg class="chart" viewBox="0 0 640 236" role="img"')
    assert chart.count('class="grid"') == 3  # two across, one tick under the line
    assert '<polyline points="52.0,146.0 332.0,58.0 612.0,102.0" class="line"/>' in chart


def test_the_akropolis_breakdown_shows_value_times_stars_per_colour() -> None:
    detail = {
        "total": 23,
        "stones": 3,
        "colors": {c: {"value": 2, "stars": 2, "points": 4} for c in ("house", "market")}
        | {c: {"value": 0, "stars": 1, "points": 0} for c in ("barracks", "temple", "garden")},
    }
    table = breakdown("akropolis", [detail])
    assert table is not None
    assert table.headers == ["House", "Market", "Barracks", "Temple", "Garden", "Stones", "Total"]
    times = "\N{MULTIPLICATION SIGN}"
    assert table.rows[0][:3] == [f"2 {times} 2 = 4", f"2 {times} 2 = 4", f"0 {times} 1 = 0"]
    assert table.rows[0][5:] == ["3", "23"]


def architekton_result(seed: int) -> dict[str, Any]:
    game = get_spec("architekton").game
    bots = [builtin_bot("greedy", "architekton", seed, seat) for seat in range(2)]
    return play_match(game, seed=seed, players=2, options={}, bots=bots, bot_ids=["a", "b"]).result


def test_the_architekton_breakdown_adds_up_to_the_engine_s_scores() -> None:
    result = architekton_result(seed=2)  # played to the end: 6 to 2

    table = breakdown("architekton", result["details"])

    assert table is not None
    assert table.headers == ["Points from play", "Largest chain", "Houses kept", "Final score"]
    assert [int(row[3]) for row in table.rows] == result["scores"] == [6, 2]
    assert [int(row[0]) + int(row[1]) for row in table.rows] == result["scores"]


def test_the_architekton_breakdown_says_who_lost_early() -> None:
    result = architekton_result(seed=4)  # seat 0 loses early

    table = breakdown("architekton", result["details"])

    assert table is not None
    dash = "\N{EN DASH}"
    assert table.rows == [
        [str(result["scores"][0]), dash, dash, f"{result['scores'][0]} (lost early: ranked last)"],
        [str(result["scores"][1]), dash, dash, str(result["scores"][1])],
    ]


def test_other_games_show_their_details_as_they_are() -> None:
    table = breakdown("attika", [{"buildings_on_map": 3, "winner": True, "win_reason": None}])
    assert table is not None
    assert table.headers == ["Buildings on map", "Winner", "Win reason"]
    assert table.rows == [["3", "yes", "\N{EN DASH}"]]
    assert breakdown("attika", []) is None
    assert breakdown("a game gone", [{"points": 3}]) == breakdown("attika", [{"points": 3}])


def test_the_engines_names_in_a_breakdown_read_as_words() -> None:
    details = [
        {"end_reason": "power_stations", "win_reason": "all_buildings", "name": "Temple_of_x"},
        {"end_reason": "power_stations", "win_reason": "shrine", "name": "seat 1"},
    ]
    table = breakdown("attika", details)
    assert table is not None
    assert table.rows == [
        ["power stations", "all buildings", "Temple_of_x"],
        ["power stations", "shrine", "seat 1"],
    ]


@pytest.mark.parametrize("game_id", game_ids())
def test_the_board_renderer_a_spec_names_is_a_static_file(game_id: str) -> None:
    renderer = get_spec(game_id).renderer
    assert renderer is not None, "every real game has a board"
    assert board_renderer(game_id) == renderer
    assert finders.find(f"web/games/{renderer}.js") is not None


def test_a_game_without_a_board_renderer_or_no_longer_known_shows_its_text() -> None:
    assert board_renderer("a game gone") == "text"


@pytest.mark.django_db
def test_markdown_gets_heading_ids_site_links_and_no_raw_html() -> None:
    doc = render_markdown(
        "# Title\n\n## A part\n\n## A part\n\nSee [x](../examples/bots/random_bot.py) and "
        "[y](attika-reconstruction.md#maps) and [z](https://example.org).\n\n<script>x</script>"
    )
    assert doc.title == "Title"
    assert [h.anchor for h in doc.headings] == ["title", "a-part", "a-part-2"]
    assert 'href="/docs/examples/random_bot.py"' in doc.html
    assert 'href="/docs/attika-reconstruction/#maps"' in doc.html
    assert 'href="https://example.org"' in doc.html
    assert "<script>" not in doc.html and "&lt;script&gt;" in doc.html


@pytest.mark.django_db
def test_code_in_a_table_may_break_after_its_underscores_and_nowhere_else() -> None:
    """A phone's table fits only if its longest word does: `construction_site` may go on
    a second line after its `_`, the code outside tables and the code's text stay as they
    are, escaped."""
    doc = render_markdown(
        "Use `construction_site`.\n\n| kind | what |\n|---|---|\n"
        "| `construction_site` | `<b>_x` |\n"
    )
    assert "<p>Use <code>construction_site</code>.</p>" in doc.html
    assert "<td><code>construction_<wbr>site</code></td>" in doc.html
    assert "<td><code>&lt;b&gt;_<wbr>x</code></td>" in doc.html
