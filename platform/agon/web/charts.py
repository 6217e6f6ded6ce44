"""Rating history charts as inline SVG, drawn on the server from RatingChange rows.

No script and no library: a line through the rating's value after each rated match, the
value before the first one as its start, dots with a tooltip each (the ratings as
`agon.ratings.display` shows them; hollow while the version was provisional), a few
round values as grid lines. The chart scales with its container (a viewBox and width
100%).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from agon.ladders.models import RatingChange

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 52, 16, 14, 30


def _nice_step(span: float, ticks: int = 4) -> float:
    raw = max(span, 1.0) / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return float(factor * power)
    return float(10 * power)


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
    description = (
        f"{len(changes)} rated matches, from {changes[0].shown_before} to "
        f"{changes[-1].shown_after}; lowest {low:.0f}, highest {high:.0f}."
    )
    return format_html(
        '<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-labelledby="{id}-t {id}-d" '
        'preserveAspectRatio="xMidYMid meet">'
        '<title id="{id}-t">{title}</title><desc id="{id}-d">{desc}</desc>'
        "{lines}"
        '<text x="{mid}" y="{xlabel_y}" class="tick" text-anchor="middle">rated matches</text>'
        '<polyline points="{points}" class="line"/>{dots}</svg>',
        w=WIDTH,
        h=HEIGHT,
        id=chart_id,
        title=title,
        desc=description,
        lines=lines,
        mid=LEFT + plot_w / 2,
        xlabel_y=HEIGHT - 8,
        points=points,
        dots=dots,
    )
