"""The kit's progress line (no rich in the kit): one line rewritten in place on a
terminal, a count only for what is counted, nothing at all off a terminal."""

from __future__ import annotations

import io

from agon_kit.progress import LineProgress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_count_is_shown_out_of_its_total() -> None:
    screen = Terminal()
    with LineProgress(40, "games", stream=screen) as progress:
        progress.update(0, completed=12, description="evidence +1.25")
    assert "\r\x1b[Kevidence +1.25 12/40 0:00" in screen.getvalue()
    assert screen.getvalue().endswith("\r\x1b[K")  # the line is gone at the end


def test_a_wait_without_a_total_shows_the_time_only() -> None:
    screen = Terminal()
    with LineProgress(None, "validating v2", stream=screen) as progress:
        progress.update(0)
    assert screen.getvalue().count("\r\x1b[Kvalidating v2 0:00") == 2


def test_nothing_is_written_off_a_terminal() -> None:
    stream = io.StringIO()
    with LineProgress(None, "validating v2", stream=stream) as progress:
        progress.update(0, description="still")
    assert stream.getvalue() == ""
