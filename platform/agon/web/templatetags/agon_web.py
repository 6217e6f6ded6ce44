"""Small helpers of the templates: seats, games, statuses, ranks and charts."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from agon.matches.selectors import SeatShown
from agon.web.games import game_name as _game_name
from engine.match import fault_when as _fault_when

register = template.Library()


@register.filter
def fault_when(fault: dict[str, object]) -> str:
    """ "on its 3rd move (game turn 4)": the seat's own move and the game's turn, apart."""
    return _fault_when(fault)


@register.filter
def game_name(game_id: str) -> str:
    return _game_name(game_id)


@register.filter
def get_item(mapping: object, key: Any) -> Any:
    """`mapping[key]`, or None (a missing mapping, as a page refused early has: the
    template engine gives it as "")."""
    return mapping.get(key) if isinstance(mapping, Mapping) else None


@register.filter
def seat_label(seat: SeatShown) -> str:
    """`owner/name v3` for an uploaded bot, `builtin random` for a builtin one."""
    if seat.bot is not None:
        return f"{seat.owner}/{seat.name} v{seat.version}"
    if seat.human:
        return f"{seat.human} (human)"
    return f"builtin {seat.builtin}"


@register.simple_tag
def seat_link(seat: SeatShown) -> SafeString:
    if seat.bot is not None:
        return format_html(
            '<a href="{}">{}</a>',
            reverse("web:bot", args=[seat.bot]),
            seat_label(seat),
        )
    return format_html('<span class="builtin">{}</span>', seat_label(seat))


@register.filter
def ordinal(rank: int | None) -> str:
    if rank is None:
        return "\N{EN DASH}"
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


@register.filter
def place(seat: SeatShown, seats: Iterable[SeatShown]) -> str:
    """A seat's finishing place, "=1st" when another seat of `seats` shares it: a tie is
    a shared place, not a win for both."""
    shared = sum(other.rank == seat.rank for other in seats) > 1
    return ("=" if shared and seat.rank is not None else "") + ordinal(seat.rank)


@register.simple_tag
def status_badge(status: str) -> SafeString:
    return format_html('<span class="badge badge-{}">{}</span>', status, status)


@register.filter
def duration(seconds: float) -> str:
    """A match's length as a person says it: "0.8 s", "42 s", "3 min 5 s"."""
    if seconds < 10:
        return f"{seconds:.1f} s"
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    return f"{whole // 60} min {whole % 60} s"


@register.filter
def signed(value: float) -> str:
    return f"{value:+.0f}"


_CODE_SPAN = re.compile(r"`([^`]+)`")


@register.filter
def inline_code(text: str) -> SafeString:
    """Plain text whose `backticked` spans are shown as code, everything escaped."""
    return mark_safe(_CODE_SPAN.sub(r"<code>\1</code>", escape(text)))  # noqa: S308 - escaped above
