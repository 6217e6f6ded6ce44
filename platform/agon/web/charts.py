"""Line charts as inline SVG, drawn on the server: a bot's rating history and a version
test's evidence.

No script and no library. One skeleton, `line_chart`, draws what every chart has: a
line through values evenly spaced from left to right (one after the other, not by time),
grid lines across at a few round values labelled on the left, ticks with labels under
the line, a caption under them, dots with a tooltip each, a title and a description for
screen readers; every text is escaped. The chart scales with its container (a viewBox
and width 100%). The two charts say only what is theirs:

- `rating_chart`, from RatingChange rows: the rating after each rated match, the value
  before the first one as its start, a dot per match with its tooltip (the match, its
  date and the ratings as `competition.ratings.display` shows them; hollow while the version
  was provisional), and under the line the dates of a few matches (UTC; times of day
  when they all fall on one day).
- `llr_chart`: a version test's evidence after each pair, between its two bounds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from agon.ladders.models import RatingChange

WIDTH, HEIGHT = 640, 236
LEFT, RIGHT, TOP, BOTTOM = 52, 28, 14, 46
PLOT_WIDTH, PLOT_HEIGHT = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
DATE_TICKS = 4
"""At most this many dates under the rating line: the first match, the last, evenly
between."""


# The skeleton.


@dataclass(frozen=True)
class Plot:
    """Where values go: `values` evenly spaced from left to right, `low` at the bottom of
    the plot area and `high` at its top."""

    values: Sequence[float]
    low: float
    high: float

    def x(self, index: int) -> float:
        return LEFT + PLOT_WIDTH * index / max(len(self.values) - 1, 1)

    def y(self, value: float) -> float:
        return TOP + PLOT_HEIGHT * (self.high - value) / (self.high - self.low)


@dataclass(frozen=True)
class Dot:
    """A dot on the line at `values[index]`, with its tooltip."""

    index: int
    tooltip: str
    css_class: str = "dot"


def nice_step(span: float, ticks: int = 4) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) that cuts `span` in about
    `ticks` parts."""
    raw = max(span, 1.0) / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return float(factor * power)
    return float(10 * power)


def steps(first: float, last: float, step: float) -> list[float]:
    """`first`, then each `step` further, up to `last`."""
    found = []
    value = first
    while value <= last:
        found.append(value)
        value += step
    return found


def line_chart(
    plot: Plot,
    *,
    title: str,
    description: str,
    chart_id: str,
    grid: Sequence[tuple[float, str]],
    caption: str,
    x_ticks: Sequence[tuple[int, str]] = (),
    dots: Sequence[Dot] = (),
    layers: SafeString | None = None,
    css_class: str = "chart",
) -> SafeString:
    """The chart of `plot`: a grid line across at each `(value, label)` of `grid`, a tick
    under the line at each `(index, label)` of `x_ticks`, then `layers` (whatever else
    the chart draws behind its line), `caption` under the ticks, the line, and `dots`."""
    across = format_html_join(
        "",
        '<line x1="{}" x2="{}" y1="{}" y2="{}" class="grid"/>'
        '<text x="{}" y="{}" class="tick" text-anchor="end">{}</text>',
        (
            (
                LEFT,
                WIDTH - RIGHT,
                f"{plot.y(value):.1f}",
                f"{plot.y(value):.1f}",
                LEFT - 6,
                f"{plot.y(value) + 4:.1f}",
                label,
            )
            for value, label in grid
        ),
    )
    under = format_html_join(
        "",
        '<line x1="{}" x2="{}" y1="{}" y2="{}" class="grid"/>'
        '<text x="{}" y="{}" class="tick" text-anchor="middle">{}</text>',
        (
            (
                f"{plot.x(index):.1f}",
                f"{plot.x(index):.1f}",
                TOP + PLOT_HEIGHT,
                TOP + PLOT_HEIGHT + 4,
                f"{plot.x(index):.1f}",
                TOP + PLOT_HEIGHT + 17,
                label,
            )
            for index, label in x_ticks
        ),
    )
    points = " ".join(
        f"{plot.x(index):.1f},{plot.y(value):.1f}" for index, value in enumerate(plot.values)
    )
    marks = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="4" class="{}"><title>{}</title></circle>',
        (
            (
                f"{plot.x(dot.index):.1f}",
                f"{plot.y(plot.values[dot.index]):.1f}",
                dot.css_class,
                dot.tooltip,
            )
            for dot in dots
        ),
    )
    return format_html(
        '<svg class="{css_class}" viewBox="0 0 {w} {h}" role="img" '
        'aria-labelledby="{id}-t {id}-d" preserveAspectRatio="xMidYMid meet">'
        '<title id="{id}-t">{title}</title><desc id="{id}-d">{desc}</desc>'
        "{across}{under}{layers}"
        '<text x="{mid}" y="{caption_y}" class="tick" text-anchor="middle">{caption}</text>'
        '<polyline points="{points}" class="line"/>{marks}</svg>',
        css_class=css_class,
        w=WIDTH,
        h=HEIGHT,
        id=chart_id,
        title=title,
        desc=description,
        across=across,
        under=under,
        layers=layers or "",
        mid=LEFT + PLOT_WIDTH / 2,
        caption_y=HEIGHT - 8,
        caption=caption,
        points=points,
        marks=marks,
    )


# The rating history.


def _moment(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


def _date_ticks(moments: Sequence[datetime | None]) -> tuple[list[tuple[int, str]], str]:
    """(index of the change, its label) for a few changes, and the axis's caption
    (no dates for changes not stored yet)."""
    if not all(moments):
        return [], "rated matches"
    utc = [moment.astimezone(UTC) for moment in moments if moment]
    count = len(utc)
    indexes = sorted({round(k * (count - 1) / (DATE_TICKS - 1)) for k in range(DATE_TICKS)})
    if count < DATE_TICKS:
        indexes = list(range(count))
    if utc[0].date() == utc[-1].date():
        shape, caption = "%H:%M", f"rated matches on {utc[0]:%Y-%m-%d} (UTC)"
    else:
        shape, caption = "%Y-%m-%d", "rated matches, by date (UTC)"
    ticks: list[tuple[int, str]] = []
    for index in indexes:
        label = f"{utc[index]:{shape}}"
        if not ticks or ticks[-1][1] != label:  # matches of one minute (or day): one label
            ticks.append((index, label))
    return ticks, caption


def rating_chart(changes: Sequence[RatingChange], *, title: str, chart_id: str) -> SafeString:
    """An SVG chart of the ratings after each change (empty markup without changes)."""
    if not changes:
        return SafeString("")
    values = [changes[0].rating_before.value] + [change.rating_after.value for change in changes]
    low, high = min(values), max(values)
    step = nice_step(high - low)
    low_tick = math.floor(low / step) * step
    high_tick = math.ceil(high / step) * step
    if high_tick == low_tick:
        low_tick, high_tick = low_tick - step, high_tick + step
    ticks, caption = _date_ticks([change.created for change in changes])
    description = (
        f"{len(changes)} rated matches, from {changes[0].shown_before} to "
        f"{changes[-1].shown_after}; lowest {low:.0f}, highest {high:.0f}"
        + (
            f"; played {_moment(changes[0].created)} to {_moment(changes[-1].created)}."
            if ticks
            else "."
        )
    )
    return line_chart(
        Plot(values, low_tick, high_tick),
        title=title,
        description=description,
        chart_id=chart_id,
        grid=[(tick, f"{tick:.0f}") for tick in steps(low_tick, high_tick + step / 2, step)],
        x_ticks=[(index + 1, label) for index, label in ticks],  # the start is no match
        caption=caption,
        dots=[
            Dot(
                index + 1,
                f"match {change.match_id}: {change.shown_before} → {change.shown_after}"
                + (f", {_moment(change.created)}" if change.created else "")
                + (" (provisional)" if change.provisional else ""),
                "dot provisional" if change.provisional else "dot",
            )
            for index, change in enumerate(changes)
        ],
    )


# A version test's evidence.


def llr_chart(
    history: Sequence[float], *, lower: float, upper: float, title: str, chart_id: str
) -> SafeString:
    """An SVG chart of a version test's evidence (stored as its LLR) after each pair, from 0
    before the first, between its two bounds: reaching the upper one accepts H1, the
    lower one H0. Drawn (bounds and all) before the first pair too."""
    values = [0.0, *history]
    low = min(lower, *values)
    high = max(upper, *values)
    margin = (high - low) * 0.06
    plot = Plot(values, low - margin, high + margin)
    step = nice_step(plot.high - plot.low)
    bounds = format_html_join(
        "",
        '<line x1="{}" x2="{}" y1="{}" y2="{}" class="bound {}"/>'
        '<text x="{}" y="{}" class="bound-label {}" text-anchor="end">{}</text>',
        (
            (
                LEFT,
                WIDTH - RIGHT,
                f"{plot.y(value):.1f}",
                f"{plot.y(value):.1f}",
                kind,
                WIDTH - RIGHT - 4,
                f"{plot.y(value) + (-6 if kind == 'upper' else 14):.1f}",
                kind,
                f"{label} ({value:+.2f})",
            )
            for value, kind, label in (
                (upper, "upper", "H1 accepted"),
                (lower, "lower", "H0 accepted"),
            )
        ),
    )
    last = len(values) - 1
    return line_chart(
        plot,
        title=title,
        description=(
            f"{len(history)} pair{'s' if len(history) != 1 else ''} counted; the evidence "
            f"is {values[-1]:+.2f}, between {lower:+.2f} (H0 accepted) and {upper:+.2f} "
            "(H1 accepted)."
        ),
        chart_id=chart_id,
        grid=[
            (tick, f"{tick:g}")
            for tick in steps(math.ceil(plot.low / step) * step, plot.high, step)
        ],
        layers=bounds,
        caption=f"pairs of games ({len(history)})",
        dots=[Dot(last, f"after pair {last}: evidence {values[-1]:+.2f}")],
        css_class="chart llr-chart",
    )
