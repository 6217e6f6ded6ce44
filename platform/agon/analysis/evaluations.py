"""A bot's own evaluation of its turns, read from its log: a line `agon-eval V`.

A bot that wants its owner to see how it judged the game beside the analysis's curve
writes, on any of its turns, a line of its own to stderr (its log):

    agon-eval 0.73

V is its own estimate of its chance to win (with more than two seats: its expected share
of its meetings with the others, the analysis's measure), a decimal from 0 to 1 with at
most nine digits after the point. The last such line of a turn counts; anything else on
the line, a value outside [0, 1], an exponent, `nan` or `inf` makes the line a plain
line of the log. `agon_bot.evaluation(v)` writes it.

The log is the bot's, so the line is hostile input: it is read with a bounded pattern on
lines cut to MAX_LINE_CHARS, only from what the log kept (bounded by the log limit), and
shown only where the log is: to the bot's owner.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

PREFIX = "agon-eval "
MAX_LINE_CHARS = 32
"""A longer line is no evaluation (`agon-eval ` and eleven characters of a number fit)."""
VALUE = re.compile(r"agon-eval (?:0|1)(?:\.[0-9]{1,9})?|agon-eval \.[0-9]{1,9}")


def line_evaluation(line: str) -> float | None:
    """The value of one log line, if it is an evaluation line."""
    line = line.rstrip("\r")
    if len(line) > MAX_LINE_CHARS or not line.startswith(PREFIX):
        return None
    if VALUE.fullmatch(line) is None:
        return None
    value = float(line[len(PREFIX) :])
    return value if 0.0 <= value <= 1.0 else None


def turn_evaluation(text: str) -> float | None:
    """The evaluation a turn's log gives: its last evaluation line's, if any."""
    found = None
    if PREFIX not in text:
        return None
    for line in text.split("\n"):
        value = line_evaluation(line)
        if value is not None:
            found = value
    return found


def turn_evaluations(turn_logs: Sequence[str]) -> list[float | None]:
    """Each turn's evaluation (None where the turn wrote none), in the order of the turns."""
    return [turn_evaluation(text) for text in turn_logs]
