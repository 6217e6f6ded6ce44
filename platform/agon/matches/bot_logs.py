"""A bot's log as it is shown: its bytes are stored as written, and made text only here."""

from __future__ import annotations

import re
from collections.abc import Sequence

UNPRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Controls but the tab and the line break: a NUL, an escape sequence or a bell from a
bot's log is shown as what it is, not acted on."""


def log_display(data: bytes, dropped_bytes: int = 0) -> str:
    """The log as text: UTF-8 where it is, every other byte as `\\xNN`, every control
    character but tab and line break as `\\xNN` too, then a note of what was dropped."""
    text = data.decode("utf-8", "backslashreplace")
    text = UNPRINTABLE.sub(lambda found: f"\\x{ord(found.group()):02x}", text)
    if dropped_bytes:
        text += f"\n[agon: {dropped_bytes} more bytes of log were dropped]\n"
    return text


def turn_logs(data: bytes, offsets: Sequence[object]) -> list[str]:
    """What each turn wrote, as `log_display` shows it: turn k from `offsets[k]` to the
    next turn's offset (the last one to the end of what was kept). Offsets that are not
    whole numbers, lie outside the log or go back count as the end of the one before."""
    bounds: list[int] = []
    for offset in offsets:
        previous = bounds[-1] if bounds else 0
        given = offset if isinstance(offset, int) and not isinstance(offset, bool) else previous
        bounds.append(min(len(data), max(previous, given)))
    ends = [*bounds[1:], len(data)][: len(bounds)]
    return [log_display(data[start:end]) for start, end in zip(bounds, ends, strict=True)]
