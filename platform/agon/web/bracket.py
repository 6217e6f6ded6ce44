"""A knockout's bracket as inline SVG, drawn on the server from the formats' ties.

The whole bracket is drawn from the first round on: the tables not reached yet come from
the knockout's outline (`Knockout.outline`) and wait for their bots. Single elimination is
one set of rounds; double elimination a winners' bracket (with the grand final and its
reset at its end) above a losers' bracket; heats a column per heat. Each table is a box of
one row per bot: seed, name (cut to NAME_CHARS, whole in the row's tooltip), points; the
bots through are bold, those out greyed. The SVG keeps its natural size, so on a phone it
scrolls sideways in its container instead of shrinking out of legibility.

`bracket_layout` places everything (plain data, tested as such); `bracket_svg` draws it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from competition.formats.core import Result
from competition.formats.knockout import Bracket, Tie
from competition.formats.protocol import Bracketed

NAME_CHARS = 24
BOX_WIDTH, ROW_HEIGHT = 236, 24
SEED_WIDTH, POINTS_WIDTH = 26, 40
COLUMN_GAP, BOX_GAP = 34, 14
MARGIN, COLUMN_TITLE_HEIGHT, SECTION_TITLE_HEIGHT = 8, 26, 30

_NAME = re.compile(r"^([A-Z]+)(\d*)(?:\.(\d+))?$")


@dataclass(frozen=True)
class Row:
    bot: int | None
    """The entrant, or None for a seat not known yet or a bye."""
    points: str
    state: str
    """through, out, playing, waiting (the bot is not known yet), bye or empty (a table
    nobody reached, in a losers' bracket fed by byes)."""


@dataclass(frozen=True)
class Box:
    name: str
    """The tie's name in the format ("R2.1", "W1.3", "GF"), used for links."""
    x: float
    y: float
    rows: tuple[Row, ...]

    @property
    def height(self) -> float:
        return len(self.rows) * ROW_HEIGHT


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    text: str
    kind: str
    """column or section."""


@dataclass(frozen=True)
class Layout:
    width: float
    height: float
    boxes: tuple[Box, ...]
    labels: tuple[Label, ...]
    links: tuple[tuple[float, float, float, float], ...]
    """Connectors from a box's right edge to the box it feeds: x1, y1, x2, y2."""


@dataclass(frozen=True)
class _Table:
    stage: int
    name: str
    family: str
    round: int
    position: int
    seats: int


def _parse(stage: int, name: str, seats: int) -> _Table:
    found = _NAME.match(name)
    if found is None:
        raise ValueError(f"not a knockout table's name: {name!r}")
    family, number, position = found.groups()
    return _Table(stage, name, family, int(number or 1), int(position or 1) - 1, seats)


def _section_of(family: str) -> str:
    return {"L": "Losers' bracket", "W": "Winners' bracket", "GF": "Winners' bracket"}.get(
        family, ""
    )


def _column_title(family: str, round_: int, last: int) -> str:
    if family == "GF":
        return "Grand final" if round_ == 1 else "Grand final, reset"
    if family == "F":
        return "Final"
    if family == "H":
        return f"Heat {round_}"
    if family == "R":
        names = {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}
        return names.get(last - round_, f"Round {round_}")
    if round_ == last:
        return "Winners' final" if family == "W" else "Losers' final"
    return f"Round {round_}"


def _tables(knockout: Bracketed, played: Bracket) -> list[_Table]:
    """Every table of the outline, and a grand final's reset if it was played (the outline
    never needs one)."""
    outline = knockout.outline()
    tables = [
        _parse(tie.round, tie.name, len(tie.bots))
        for tie in sorted([*outline.ties, *outline.byes], key=lambda t: (t.round, t.name))
    ]
    known = {table.name for table in tables}
    tables += [_parse(t.round, t.name, len(t.bots)) for t in played.ties if t.name not in known]
    return tables


def _last_rounds(tables: Iterable[_Table]) -> dict[str, int]:
    last: dict[str, int] = {}
    for table in tables:
        last[table.family] = max(last.get(table.family, 0), table.round)
    return last


def stage_titles(knockout: Bracketed, results: Sequence[Result]) -> dict[int, str]:
    """Each stage's title where it stands alone, as in a list of games: "Semi-finals",
    "Losers' round 2", "Grand final", "Heat 1"."""
    tables = _tables(knockout, knockout.run(results))
    last = _last_rounds(tables)
    titles = {}
    for table in tables:
        title = _column_title(table.family, table.round, last[table.family])
        if table.family in ("W", "L") and title.startswith("Round"):
            title = f"{_section_of(table.family).split()[0]} round {table.round}"
        titles[table.stage] = title
    return titles


def _rows(table: _Table, tie: Tie | None, bye: Tie | None, started: bool) -> tuple[Row, ...]:
    if bye is not None and not bye.bots:
        return (Row(None, "", "empty"),)
    if bye is not None:
        shown = [Row(bot, "", "through") for bot in bye.bots]
        return tuple(shown + [Row(None, "", "bye")] * (max(table.seats, 2) - len(shown)))
    if tie is None:
        return tuple(Row(None, "", "waiting") for _ in range(max(table.seats, 2)))
    rows = []
    for bot, points in zip(tie.bots, tie.points, strict=True):
        state = "playing" if tie.advancing is None else "out"
        if tie.advancing is not None and bot in tie.advancing:
            state = "through"
        rows.append(Row(bot, points_text(points) if started else "", state))
    return tuple(rows)


def bracket_layout(knockout: Bracketed, results: Sequence[Result]) -> Layout:
    """Every table of the bracket in place, with what the results decided so far."""
    played = knockout.run(results)
    ties = {tie.name: tie for tie in played.ties}
    started = {result.game.tie for result in results}
    byes = {tie.name: tie for tie in played.byes}
    tables = _tables(knockout, played)

    sections: dict[str, dict[int, list[_Table]]] = {}
    for table in tables:
        sections.setdefault(_section_of(table.family), {}).setdefault(table.stage, []).append(table)
    seats = max(table.seats for table in tables)
    slot = max(seats, 2) * ROW_HEIGHT + BOX_GAP
    boxes: list[Box] = []
    labels: list[Label] = []
    links: list[tuple[float, float, float, float]] = []
    top = float(MARGIN)
    width = 0.0
    for title, stages in sections.items():
        if title:
            labels.append(Label(MARGIN, top + SECTION_TITLE_HEIGHT - 10, title, "section"))
            top += SECTION_TITLE_HEIGHT
        columns = [stages[stage] for stage in sorted(stages)]
        counts = [max(t.position for t in column) + 1 for column in columns]
        tallest = max(counts)
        last_round = _last_rounds(table for column in columns for table in column)
        centres: list[dict[int, float]] = []
        for index, column in enumerate(columns):
            x = MARGIN + index * (BOX_WIDTH + COLUMN_GAP)
            first = column[0]
            labels.append(
                Label(
                    x,
                    top + COLUMN_TITLE_HEIGHT - 10,
                    _column_title(first.family, first.round, last_round[first.family]),
                    "column",
                )
            )
            share = tallest * slot / counts[index]
            centre: dict[int, float] = {}
            for table in column:
                rows = _rows(
                    table, ties.get(table.name), byes.get(table.name), table.name in started
                )
                middle = top + COLUMN_TITLE_HEIGHT + (table.position + 0.5) * share
                boxes.append(Box(table.name, x, middle - len(rows) * ROW_HEIGHT / 2, rows))
                centre[table.position] = middle
            centres.append(centre)
            width = max(width, x + BOX_WIDTH + MARGIN)
        if knockout.players == 2:
            links += _connectors(columns, counts, centres)
        top += COLUMN_TITLE_HEIGHT + tallest * slot
    return Layout(width, top + MARGIN, tuple(boxes), tuple(labels), tuple(links))


def _connectors(
    columns: Sequence[Sequence[_Table]], counts: Sequence[int], centres: Sequence[dict[int, float]]
) -> Iterable[tuple[float, float, float, float]]:
    """A tie feeds the tie of the next column in its place (as many ties) or in half its
    place (half as many)."""
    for index in range(len(columns) - 1):
        here, there = counts[index], counts[index + 1]
        if there not in (here, here / 2):
            continue
        x1 = MARGIN + index * (BOX_WIDTH + COLUMN_GAP) + BOX_WIDTH
        for position, y1 in sorted(centres[index].items()):
            target = position if there == here else position // 2
            if target in centres[index + 1]:
                yield (x1, y1, x1 + COLUMN_GAP, centres[index + 1][target])


def points_text(points: float) -> str:
    """Points as people write them: 2, 1.5, 2.33 (a third of a point at a table of four)."""
    return f"{round(points, 2):g}"


def _cut(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def _row_markup(box: Box, index: int, row: Row, names: Sequence[str]) -> SafeString:
    y = box.y + index * ROW_HEIGHT
    text_y = f"{y + ROW_HEIGHT / 2 + 4.5:.1f}"
    if row.bot is None:
        label = {"bye": "bye", "waiting": "to be decided", "empty": "no game"}[row.state]
        return format_html(
            '<g class="row {}"><text x="{}" y="{}" class="name">{}</text></g>',
            row.state,
            f"{box.x + SEED_WIDTH:.1f}",
            text_y,
            label,
        )
    name = names[row.bot]
    return format_html(
        '<g class="row {state}"><title>{full}</title>'
        '<text x="{seed_x}" y="{y}" class="seed" text-anchor="end">{seed}</text>'
        '<text x="{name_x}" y="{y}" class="name">{name}</text>'
        '<text x="{points_x}" y="{y}" class="points" text-anchor="end">{points}</text></g>',
        state=row.state,
        full=f"{name} (seed {row.bot + 1})",
        seed_x=f"{box.x + SEED_WIDTH - 6:.1f}",
        y=text_y,
        seed=row.bot + 1,
        name_x=f"{box.x + SEED_WIDTH:.1f}",
        name=_cut(name),
        points_x=f"{box.x + BOX_WIDTH - 8:.1f}",
        points=row.points,
    )


def _box_markup(box: Box, names: Sequence[str], links: Mapping[str, str]) -> SafeString:
    dividers = format_html_join(
        "",
        '<line x1="{0}" x2="{1}" y1="{2}" y2="{2}" class="divider"/>',
        (
            (box.x, box.x + BOX_WIDTH, f"{box.y + i * ROW_HEIGHT:.1f}")
            for i in range(1, len(box.rows))
        ),
    )
    rows = format_html_join(
        "", "{}", ((_row_markup(box, i, row, names),) for i, row in enumerate(box.rows))
    )
    drawn = format_html(
        '<g class="table" data-tie="{}"><rect x="{}" y="{}" width="{}" height="{}" rx="5"/>'
        "{}{}</g>",
        box.name,
        box.x,
        f"{box.y:.1f}",
        BOX_WIDTH,
        f"{box.height:.1f}",
        dividers,
        rows,
    )
    href = links.get(box.name)
    if href is None:
        return drawn
    return format_html('<a href="{}">{}</a>', href, drawn)


def bracket_svg(
    knockout: Bracketed,
    results: Sequence[Result],
    names: Sequence[str],
    *,
    links: Mapping[str, str] | None = None,
    title: str = "Bracket",
) -> SafeString:
    """The bracket as an SVG element; `names` by entrant (seed order), `links` by tie name."""
    layout = bracket_layout(knockout, results)
    connectors = format_html_join(
        "",
        '<path d="M{} {} H{} V{} H{}" class="connector"/>',
        (
            (
                f"{x1:.1f}",
                f"{y1:.1f}",
                f"{x1 + (x2 - x1) / 2:.1f}",
                f"{y2:.1f}",
                f"{x2:.1f}",
            )
            for x1, y1, x2, y2 in layout.links
        ),
    )
    labels = format_html_join(
        "",
        '<text x="{}" y="{}" class="{}-title">{}</text>',
        ((label.x, f"{label.y:.1f}", label.kind, label.text) for label in layout.labels),
    )
    boxes = format_html_join(
        "", "{}", ((_box_markup(box, names, links or {}),) for box in layout.boxes)
    )
    return format_html(
        '<svg class="bracket" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        'viewBox="0 0 {w} {h}" aria-labelledby="bracket-title">'
        '<title id="bracket-title">{title}</title>{connectors}{labels}{boxes}</svg>',
        w=f"{layout.width:.0f}",
        h=f"{layout.height:.0f}",
        title=title,
        connectors=connectors,
        labels=labels,
        boxes=boxes,
    )
