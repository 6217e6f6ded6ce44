"""The statistics page's pictures, inline SVG drawn on the server like agon.web.charts
(whose frame and round steps they share): a histogram of counts per bin, and a seat's
win rate as a bar with its interval beside the rate of a seat without an edge.

Every text is escaped; no style attribute (the Content-Security-Policy), the colours
are agon.css's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from agon.web.charts import (
    BOTTOM,
    HEIGHT,
    LEFT,
    PLOT_HEIGHT,
    PLOT_WIDTH,
    TOP,
    WIDTH,
    nice_step,
    steps,
)

X_LABELS = 6
"""At most this many bins are labelled under a histogram."""
RATE_WIDTH, RATE_HEIGHT = 200, 18


def _span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}\N{EN DASH}{high}"


def histogram_chart(
    bins: Sequence[Mapping[str, Any]], *, title: str, unit: str, counted: str, chart_id: str
) -> SafeString:
    """Bars of `bins` (`low`, `high`, `count`), a tooltip each ("12-13 turns: 5 matches",
    with an en dash; `unit` the values', `counted` what is counted); empty markup
    without bins."""
    if not bins:
        return SafeString("")
    top_count = max(int(part["count"]) for part in bins)
    step = max(nice_step(top_count), 1.0)
    high = max(step, -(-top_count // step) * step)
    slot = PLOT_WIDTH / len(bins)
    gap = min(4.0, slot * 0.15)

    def y(value: float) -> float:
        return TOP + PLOT_HEIGHT * (1 - value / high)

    grid = format_html_join(
        "",
        '<line x1="{}" x2="{}" y1="{}" y2="{}" class="grid"/>'
        '<text x="{}" y="{}" class="tick" text-anchor="end">{}</text>',
        (
            (
                LEFT,
                WIDTH - 28,
                f"{y(value):.1f}",
                f"{y(value):.1f}",
                LEFT - 6,
                f"{y(value) + 4:.1f}",
                f"{value:g}",
            )
            for value in steps(0, high, step)
        ),
    )
    bars = format_html_join(
        "",
        '<rect x="{}" y="{}" width="{}" height="{}" class="bar"><title>{} {}: {} {}</title></rect>',
        (
            (
                f"{LEFT + index * slot + gap / 2:.1f}",
                f"{y(int(part['count'])):.1f}",
                f"{slot - gap:.1f}",
                f"{TOP + PLOT_HEIGHT - y(int(part['count'])):.1f}",
                _span(int(part["low"]), int(part["high"])),
                unit,
                part["count"],
                counted,
            )
            for index, part in enumerate(bins)
        ),
    )
    every = -(-len(bins) // X_LABELS)
    labels = format_html_join(
        "",
        '<text x="{}" y="{}" class="tick" text-anchor="middle">{}</text>',
        (
            (
                f"{LEFT + (index + 0.5) * slot:.1f}",
                TOP + PLOT_HEIGHT + 17,
                _span(int(part["low"]), int(part["high"])),
            )
            for index, part in enumerate(bins)
            if index % every == 0
        ),
    )
    total = sum(int(part["count"]) for part in bins)
    description = (
        f"{total} {counted} in {len(bins)} bins from {bins[0]['low']} to {bins[-1]['high']} "
        f"{unit}; the fullest holds {top_count}."
    )
    return format_html(
        '<svg class="chart histogram" viewBox="0 0 {w} {h}" role="img" '
        'aria-labelledby="{id}-t {id}-d" preserveAspectRatio="xMidYMid meet">'
        '<title id="{id}-t">{title}</title><desc id="{id}-d">{desc}</desc>'
        "{grid}{bars}{labels}"
        '<text x="{mid}" y="{caption_y}" class="tick" text-anchor="middle">{caption}</text>'
        "</svg>",
        w=WIDTH,
        h=HEIGHT,
        id=chart_id,
        title=title,
        desc=description,
        grid=grid,
        bars=bars,
        labels=labels,
        mid=LEFT + PLOT_WIDTH / 2,
        caption_y=HEIGHT - BOTTOM + 38,
        caption=f"{unit}; bar height: {counted}",
    )


def rate_bar(rate: float | None, interval: Sequence[float] | None, even: float) -> SafeString:
    """A win rate from 0 to 100 % as a bar, its interval as a whisker across it, and a
    mark at `even` (the rate of a seat without an edge); empty markup without a rate."""
    if rate is None or not interval:
        return SafeString("")

    def x(value: float) -> str:
        return f"{2 + (RATE_WIDTH - 4) * min(max(value, 0.0), 1.0):.1f}"

    middle = RATE_HEIGHT / 2
    return format_html(
        '<svg class="rate-bar" viewBox="0 0 {w} {h}" preserveAspectRatio="none" role="img" '
        'aria-label="{label}">'
        '<rect x="2" y="3" width="{full}" height="{bar_h}" class="rate-track"/>'
        '<rect x="2" y="3" width="{bar}" height="{bar_h}" class="rate"/>'
        '<line x1="{low}" x2="{high}" y1="{mid}" y2="{mid}" class="whisker"/>'
        '<line x1="{low}" x2="{low}" y1="4" y2="{end}" class="whisker"/>'
        '<line x1="{high}" x2="{high}" y1="4" y2="{end}" class="whisker"/>'
        '<line x1="{even}" x2="{even}" y1="0" y2="{h}" class="even"/></svg>',
        w=RATE_WIDTH,
        h=RATE_HEIGHT,
        label=f"win rate {rate:.0%}, 95% interval {interval[0]:.0%} to {interval[1]:.0%}; "
        f"without an edge {even:.0%}",
        full=RATE_WIDTH - 4,
        bar_h=RATE_HEIGHT - 6,
        bar=f"{(RATE_WIDTH - 4) * min(max(rate, 0.0), 1.0):.1f}",
        low=x(interval[0]),
        high=x(interval[1]),
        mid=middle,
        end=RATE_HEIGHT - 4,
        even=x(even),
    )
