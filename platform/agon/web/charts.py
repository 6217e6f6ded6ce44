"""Rating history charts as inline SVG, drawn on the server from RatingChange rows.

No script and no library: a line through the rating's value after each rated match, the
value before the first one as its start, dots with a tooltip each (the match, its date
and the ratings as `competition.ratings.display` shows them; hollow while the version was
provisional), a few round values as grid lines, and under the line the dates of a few
matches (UTC; times of day when they all fall on one day). The matches are evenly
spaced, one after the other, not by time. The chart scales with its container (a viewBox
and width 100%).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from agon.ladders.models import RatingChange

WIDTH, HEIGHT = 640, 236
LEFT, RIGHT, TOP, BOTTOM = 52, 28, 14, 46
DATE_TICKS = 4
"""At most this many dates under the line: the first match, the last, evenly between."""


def _nice_step(span: float, ticks: int = 4) -> float:
    raw = max(span, 1.0) / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return float(factor * power)
    return float(10 * power)


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
    step = _nice_step(high - low)
    low_tick = math.floor(low / step) * step
    high_tick = math.ceil(high / step) * step
    if high_tick == low_tick:
        low_tick, high_tick = low_tick - step, high_tick + step
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return LEFT + plot_w * index / max(len(values) - 1, 1)

    def y(value: float) -> float:
        return TOP + plot_h * (high_tick - value) / (high_tick - low_tick)

    grid = []
    tick = low_tick
    while tick <= high_tick + step / 2:
        grid.append((y(tick), f"{tick:.0f}"))
        tick += step
    points = " ".join(f"{x(i):.1f},{y(value):.1f}" for i, value in enumerate(values))
    dots = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="4" class="{}"><title>{}</title></circle>',
        (
            (
                f"{x(i + 1):.1f}",
                f"{y(values[i + 1]):.1f}",
                "dot provisional" if change.provisional else "dot",
                f"match {change.match_id}: {change.shown_before} → {change.shown_after}"
                + (f", {_moment(change.created)}" if change.created else "")
                + (" (provisional)" if change.provisional else ""),
            )
            for i, change in enumerate(changes)
        ),
    )
    lines = format_html_join(
        "",
        '<line x1="{}" x2="{}" y1="{}" y2="{}" class="grid"/>'
        '<text x="{}" y="{}" class="tick" text-anchor="end">{}</text>',
        (
            (LEFT, WIDTH - RIGHT, f"{gy:.1f}", f"{gy:.1f}", LEFT - 6, f"{gy + 4:.1f}", label)
            for gy, label in grid
        ),
    )
    ticks, caption = _date_ticks([change.created for change in changes])
    dates = format_html_join(
        "",
        '<line x1="{}" x2="{}" y1="{}" y2="{}" class="grid"/>'
        '<text x="{}" y="{}" class="tick" text-anchor="middle">{}</text>',
        (
            (
                f"{x(index + 1):.1f}",
                f"{x(index + 1):.1f}",
                TOP + plot_h,
                TOP + plot_h + 4,
                f"{x(index + 1):.1f}",
                TOP + plot_h + 17,
                label,
            )
            for index, label in ticks
        ),
    )
    description = (
        f"{len(changes)} rated matches, from {changes[0].shown_before} to "
        f"{changes[-1].shown_after}; lowest {low:.0f}, highest {high:.0f}"
        + (
            f"; played {_moment(changes[0].created)} to {_moment(changes[-1].created)}."
            if ticks
            else "."
        )
    )
    return format_html(
        '<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-labelledby="{id}-t {id}-d" '
        'preserveAspectRatio="xMidYMid meet">'
        '<title id="{id}-t">{title}</title><desc id="{id}-d">{desc}</desc>'
        "{lines}{dates}"
        '<text x="{mid}" y="{xlabel_y}" class="tick" text-anchor="middle">{caption}</text>'
        '<polyline points="{points}" class="line"/>{dots}</svg>',
        w=WIDTH,
        h=HEIGHT,
        id=chart_id,
        title=title,
        desc=description,
        lines=lines,
        dates=dates,
        caption=caption,
        mid=LEFT + plot_w / 2,
        xlabel_y=HEIGHT - 8,
        points=points,
        dots=dots,
    )


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
    low, high = low - margin, high + margin
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    pairs = max(len(values) - 1, 1)

    def x(index: int) -> float:
        return LEFT + plot_w * index / pairs

    def y(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    step = _nice_step(high - low)
    ticks = []
    tick = math.ceil(low / step) * step
    while tick <= high:
        ticks.append(tick)
        tick += step
    grid = format_html_join(
        "",
        '<line x1="{}" x2="{}" y1="{}" y2="{}" class="grid"/>'
        '<text x="{}" y="{}" class="tick" text-anchor="end">{}</text>',
        (
            (
                LEFT,
                WIDTH - RIGHT,
                f"{y(t):.1f}",
                f"{y(t):.1f}",
                LEFT - 6,
                f"{y(t) + 4:.1f}",
                f"{t:g}",
            )
            for t in ticks
        ),
    )
    bounds = format_html_join(
        "",
        '<line x1="{}" x2="{}" y1="{}" y2="{}" class="bound {}"/>'
        '<text x="{}" y="{}" class="bound-label {}" text-anchor="end">{}</text>',
        (
            (
                LEFT,
                WIDTH - RIGHT,
                f"{y(value):.1f}",
                f"{y(value):.1f}",
                kind,
                WIDTH - RIGHT - 4,
                f"{y(value) + (-6 if kind == 'upper' else 14):.1f}",
                kind,
                f"{label} ({value:+.2f})",
            )
            for value, kind, label in (
                (upper, "upper", "H1 accepted"),
                (lower, "lower", "H0 accepted"),
            )
        ),
    )
    points = " ".join(f"{x(i):.1f},{y(value):.1f}" for i, value in enumerate(values))
    last = len(values) - 1
    description = (
        f"{len(history)} pair{'s' if len(history) != 1 else ''} counted; the evidence is "
        f"{values[-1]:+.2f}, between {lower:+.2f} (H0 accepted) and {upper:+.2f} (H1 accepted)."
    )
    return format_html(
        '<svg class="chart llr-chart" viewBox="0 0 {w} {h}" role="img" '
        'aria-labelledby="{id}-t {id}-d" preserveAspectRatio="xMidYMid meet">'
        '<title id="{id}-t">{title}</title><desc id="{id}-d">{desc}</desc>'
        "{grid}{bounds}"
        '<text x="{mid}" y="{xlabel_y}" class="tick" text-anchor="middle">'
        "pairs of games ({pairs})</text>"
        '<polyline points="{points}" class="line"/>'
        '<circle cx="{last_x}" cy="{last_y}" r="4" class="dot"><title>after pair {last}: '
        "evidence {last_value}</title></circle></svg>",
        w=WIDTH,
        h=HEIGHT,
        id=chart_id,
        title=title,
        desc=description,
        grid=grid,
        bounds=bounds,
        mid=LEFT + plot_w / 2,
        xlabel_y=HEIGHT - 8,
        pairs=len(history),
        points=points,
        last_x=f"{x(last):.1f}",
        last_y=f"{y(values[-1]):.1f}",
        last=last,
        last_value=f"{values[-1]:+.2f}",
    )
