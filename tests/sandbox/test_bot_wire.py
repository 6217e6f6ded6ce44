"""The bot library's JSON (`agon_bot.wire`): what `json.loads` and `json.dumps(...,
separators=(",", ":"))` give, through CPython's accelerator without importing `json`."""

from __future__ import annotations

import json
import math

import pytest

from agon_bot import wire

VALUES = [
    {"type": "turn", "move": 3, "observation": {"grid": [[0, 1], [2, None]], "ok": True}},
    {"action": {"tile": 4, "q": -6, "r": 3, "rotation": 0}},
    {"action": [1.5, -0.0, 1e300, 2**70, -(2**63), "é ☃ \U0001f600", '"\\/\n\t']},
    [],
    {},
    "a string alone",
    7,
    None,
    {"nested": [{"deep": [[[]]]}], "": "empty key"},
]


def test_the_library_uses_the_accelerator() -> None:
    assert wire.loads.__module__ == wire.__name__  # not json's, which it would fall back on


@pytest.mark.parametrize("value", VALUES)
def test_it_writes_and_reads_as_json_does(value: object) -> None:
    text = json.dumps(value, separators=(",", ":"))
    assert wire.dumps(value) == text
    assert wire.loads(text) == json.loads(text)
    assert wire.loads(f" \t{text}\r\n") == json.loads(text)


def test_constants_and_errors_as_json() -> None:
    assert math.isnan(wire.loads("NaN"))
    assert wire.loads("[Infinity, -Infinity]") == [math.inf, -math.inf]
    assert wire.dumps([math.inf, -math.inf]) == "[Infinity,-Infinity]"
    for broken in ("", "{", '{"a": 1} x', "[1,]", "nul"):
        with pytest.raises(ValueError):
            wire.loads(broken)
    with pytest.raises(TypeError, match="not JSON serializable"):
        wire.dumps({"a": {1, 2}})
