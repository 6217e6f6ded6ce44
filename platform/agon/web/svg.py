"""Inline SVG written on the server: elements as escaped HTML, numbers kept short.

Attribute names are ours (written in the code); every value and every text is escaped,
so data from anywhere may be drawn. No `style` attribute: the site's
Content-Security-Policy refuses inline styles, so colours and sizes are presentation
attributes (`fill`, `font-size`) and the layout is in agon.css.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

Attrs = Mapping[str, object]


def number(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros (`-0` is `0`)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _value(value: object) -> str:
    return number(value) if isinstance(value, float) else str(value)


def attributes(attrs: Attrs) -> SafeString:
    return format_html_join(
        "",
        ' {}="{}"',
        ((name, _value(value)) for name, value in attrs.items() if value is not None),
    )


def element(tag: str, attrs: Attrs, *children: SafeString | str) -> SafeString:
    """`<tag attrs>children</tag>`; a child that is a plain str is escaped text."""
    inner = format_html_join("", "{}", ((child,) for child in children))
    return format_html("<{}{}>{}</{}>", tag, attributes(attrs), inner, tag)


def empty(tag: str, attrs: Attrs) -> SafeString:
    return format_html("<{}{} />", tag, attributes(attrs))


def group(attrs: Attrs, children: Iterable[SafeString]) -> SafeString:
    return element("g", attrs, *children)


def points(corners: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{number(x)},{number(y)}" for x, y in corners)


def text(x: float, y: float, content: str, attrs: Attrs | None = None) -> SafeString:
    """Centred text whose middle sits on (x, y)."""
    return element(
        "text",
        {
            "x": float(x),
            "y": float(y),
            "text-anchor": "middle",
            "dominant-baseline": "central",
            **(attrs or {}),
        },
        content,
    )


ViewBox = tuple[float, float, float, float]


def view_box_around(
    spots: Iterable[tuple[float, float]], margin: float, *, min_width: float = 0.0
) -> ViewBox:
    """The smallest box holding every spot with `margin` around it, at least
    `min_width` wide (centred)."""
    xs, ys = zip(*spots, strict=True)
    left, right = min(xs) - margin, max(xs) + margin
    if right - left < min_width:
        grow = (min_width - (right - left)) / 2
        left, right = left - grow, right + grow
    top, bottom = min(ys) - margin, max(ys) + margin
    return left, top, right - left, bottom - top


def image(view_box: ViewBox, label: str, children: Iterable[SafeString], **data: str) -> SafeString:
    """An `<svg role="img">` named by `label` (its aria-label and its `<title>`), scaled
    to the width it is given; `data` become `data-*` attributes."""
    left, top, width, height = view_box
    attrs: dict[str, object] = {
        "viewBox": " ".join(number(v) for v in (left, top, width, height)),
        "role": "img",
        "aria-label": label,
        "class": "rules-picture",
        "font-family": "system-ui, sans-serif",
        **{f"data-{name.replace('_', '-')}": value for name, value in data.items()},
    }
    return element("svg", attrs, element("title", {}, label), *children)
