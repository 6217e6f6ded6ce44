"""What `agon tournament` draws at the end: the standings, and a cross-table, the bracket
or the gauntlet's Elo table as the format has one."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from agon.tournaments.formats.core import Result
from agon.tournaments.formats.gauntlet import Gauntlet
from agon.tournaments.formats.knockout import Knockout
from agon.tournaments.formats.round_robin import RoundRobin
from agon.tournaments.formats.standings import Standing, pairwise_points
from agon.tournaments.formats.swiss import Swiss

CROSS_TABLE_LIMIT = 16


def draw(
    event: RoundRobin | Swiss | Knockout | Gauntlet,
    results: Sequence[Result],
    names: Sequence[str],
) -> None:
    """Print the tables; the bots' names are shown as given, never read as rich markup."""
    names = [escape(name) for name in names]
    console = Console(highlight=False)
    if isinstance(event, Knockout):
        console.print(bracket(event, results, names))
    if isinstance(event, RoundRobin) and len(names) <= CROSS_TABLE_LIMIT:
        console.print(cross_table(results, names))
    if isinstance(event, Gauntlet):
        console.print(gauntlet_table(event, results, names))
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


def bracket(event: Knockout, results: Sequence[Result], names: Sequence[str]) -> Table:
    table = Table("round", "tie", "bots and points", "through", title="bracket")
    for tie in event.ties(results):
        bots = "  ".join(
            f"{names[bot]} {points:g}" for bot, points in zip(tie.bots, tie.points, strict=True)
        )
        through = ", ".join(names[b] for b in tie.advancing) if tie.advancing else "..."
        table.add_row(str(tie.round), tie.name, bots, through)
    return table


def gauntlet_table(event: Gauntlet, results: Sequence[Result], names: Sequence[str]) -> Table:
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
