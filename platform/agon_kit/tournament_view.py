"""What `agon tournament` draws at the end: the standings, and a cross-table, the bracket
or the gauntlet's Elo table as the format has one."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from competition.formats.core import Result
from competition.formats.protocol import (
    Bracketed,
    Format,
    GauntletTable,
    Picture,
    bracket_of,
    gauntlet_of,
)
from competition.formats.standings import Standing, pairwise_points

CROSS_TABLE_LIMIT = 16


def draw(event: Format, results: Sequence[Result], names: Sequence[str]) -> None:
    """Print the picture the format names (`Format.PICTURE`), then the standings; the
    bots' names are shown as given, never read as rich markup."""
    names = [escape(name) for name in names]
    console = Console(highlight=False)
    bracketed, gauntlet = bracket_of(event), gauntlet_of(event)
    if bracketed is not None:
        console.print(bracket(bracketed, results, names))
    if event.PICTURE is Picture.CROSS_TABLE and len(names) <= CROSS_TABLE_LIMIT:
        console.print(cross_table(results, names))
    if gauntlet is not None:
        console.print(gauntlet_table(gauntlet, results, names))
    console.print(standings_table(event.standings(results), names))


def standings_table(standings: Sequence[Standing], names: Sequence[str]) -> Table:
    tiebreaks = list(standings[0].tiebreaks) if standings else []
    table = Table("#", "bot", "points", *tiebreaks, title="standings")
    for s in standings:
        values = [f"{s.tiebreaks[name]:g}" for name in tiebreaks]
        table.add_row(str(s.rank), names[s.bot], f"{s.points:g}", *values)
    return table


def cross_table(results: Sequence[Result], names: Sequence[str]) -> Table:
    """Row bot's points against the column bot (pairwise at tables of more than two)."""
    met = pairwise_points(results)
    table = Table("", *(str(i + 1) for i in range(len(names))), title="cross-table")
    for row, name in enumerate(names):
        cells = [
            "x" if row == col else f"{met.get((row, col), (0.0, 0))[0]:g}"
            for col in range(len(names))
        ]
        table.add_row(f"{row + 1} {name}", *cells)
    return table


def bracket(event: Bracketed, results: Sequence[Result], names: Sequence[str]) -> Table:
    table = Table("round", "tie", "bots and points", "through", title="bracket")
    for tie in event.ties(results):
        bots = "  ".join(
            f"{names[bot]} {points:g}" for bot, points in zip(tie.bots, tie.points, strict=True)
        )
        through = ", ".join(names[b] for b in tie.advancing) if tie.advancing else "..."
        table.add_row(str(tie.round), tie.name, bots, through)
    return table


def gauntlet_table(event: GauntletTable, results: Sequence[Result], names: Sequence[str]) -> Table:
    table = Table("opponent", "pairs", "Elo", "95%", title=f"gauntlet of {names[0]}")
    pentanomials = event.pentanomials(results)
    for opponent, estimate in event.elo_by_opponent(results).items():
        table.add_row(
            names[opponent],
            str(sum(pentanomials[opponent])),
            f"{estimate.elo:+.0f}",
            f"[{estimate.low:+.0f}, {estimate.high:+.0f}]",
        )
    field = event.performance(results)
    table.add_row(
        "the field",
        str(sum(sum(c) for c in pentanomials.values())),
        f"{field.elo:+.0f}",
        f"[{field.low:+.0f}, {field.high:+.0f}]",
    )
    return table
