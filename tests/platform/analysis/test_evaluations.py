"""A bot's own evaluation lines (`agon-eval V`) read from its log: hostile input, so only
an exact short line with a value from 0 to 1 counts, the last of a turn."""

from __future__ import annotations

import io
import math
from contextlib import redirect_stderr

import pytest

from agon.analysis.evaluations import line_evaluation, turn_evaluation, turn_evaluations
from agon_bot import evaluation


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("agon-eval 0.73", 0.73),
        ("agon-eval 1", 1.0),
        ("agon-eval 0", 0.0),
        ("agon-eval .5", 0.5),
        ("agon-eval 1.000000000", 1.0),
        ("agon-eval 0.123456789", 0.123456789),
        ("agon-eval 0.5\r", 0.5),
    ],
)
def test_an_evaluation_line_gives_its_value(line: str, value: float) -> None:
    assert line_evaluation(line) == value


@pytest.mark.parametrize(
    "line",
    [
        "agon-eval 1.5",
        "agon-eval 2",
        "agon-eval -0.1",
        "agon-eval nan",
        "agon-eval inf",
        "agon-eval 1e-3",
        "agon-eval 0.5e0",
        "agon-eval 0x1",
        "agon-eval 0.1234567890",
        "agon-eval  0.5",
        "agon-eval 0.5 ",
        "agon-eval 0.5 and more",
        " agon-eval 0.5",
        "AGON-EVAL 0.5",
        "agon-eval \uff10.\uff15",  # full-width digits
        "agon-eval 0.5\x00",
        "agon-eval ",
        "agon-eval 0." + "9" * 100_000,
        "agon-eval" + " " * 100_000 + "0.5",
    ],
)
def test_anything_else_is_a_plain_line(line: str) -> None:
    assert line_evaluation(line) is None


def test_the_last_evaluation_of_a_turn_counts_and_a_turn_without_one_has_none() -> None:
    turns = [
        "thinking\nagon-eval 0.2\nmore\nagon-eval 0.4\nagon-eval 7\n",
        "no evaluation here\n",
        "",
        "agon-eval 0.9",
    ]

    assert turn_evaluations(turns) == [0.4, None, None, 0.9]


def test_a_huge_log_of_near_misses_is_read_in_linear_time() -> None:
    text = ("agon-eval 0." + "1" * 40 + "\n") * 20_000

    assert turn_evaluation(text) is None


@pytest.mark.parametrize("value", [0, 1, 0.5, 1 / 3, 0.999999999, 1e-12])
def test_the_kits_evaluation_writes_a_line_the_site_reads(value: float) -> None:
    written = io.StringIO()
    with redirect_stderr(written):
        evaluation(value)

    line = written.getvalue()
    assert line.endswith("\n")
    read = line_evaluation(line.rstrip("\n"))
    assert read is not None and math.isclose(read, value, abs_tol=1e-6)


@pytest.mark.parametrize("value", [-0.01, 1.01, math.nan, math.inf, -math.inf])
def test_the_kits_evaluation_refuses_a_value_outside_zero_to_one(value: float) -> None:
    with pytest.raises(ValueError, match="from 0 to 1"):
        evaluation(value)
