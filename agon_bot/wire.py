"""The protocol's JSON lines, read and written by CPython's JSON accelerator (`_json`)
directly, as `json.loads` and `json.dumps(..., separators=(",", ":"))` do.

`import json` costs a bot's start more than the rest of `agon_bot`: `json.decoder`
imports `re` (with `enum`, `functools`, `collections`) and compiles its patterns, about
half a bare interpreter's start in the bot image. The accelerator is what `json` itself
calls for both directions; where there is none (another Python), `json` it is.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

WHITESPACE = " \t\n\r"
"""JSON's whitespace, the only characters allowed around a value."""


class _Decoding:
    """What `_json.make_scanner` reads from a `json.JSONDecoder()`: its defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {
        "-Infinity": float("-inf"),
        "Infinity": float("inf"),
        "NaN": float("nan"),
    }.__getitem__


def _refuse(value: object) -> object:
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


def _accelerated() -> tuple[Callable[[str], Any], Callable[[Any], str]]:
    # Here, not at the top: an interpreter without the accelerator falls back to json.
    from _json import encode_basestring_ascii, make_encoder, make_scanner

    decoding: Any = _Decoding()  # typeshed asks for a scanner, as json's own code passes
    scan = make_scanner(decoding)

    def loads(text: str) -> Any:
        start = len(text) - len(text.lstrip(WHITESPACE))
        try:
            value, end = scan(text, start)
        except StopIteration as error:
            raise ValueError(f"Expecting value: char {error.value}") from None
        if text[end:].strip(WHITESPACE):
            raise ValueError(f"Extra data: char {end}")
        return value

    def dumps(value: Any) -> str:
        if isinstance(value, str):
            return str(encode_basestring_ascii(value))
        # As json.JSONEncoder(separators=(",", ":")).iterencode(value, _one_shot=True).
        encode = make_encoder(
            {}, _refuse, encode_basestring_ascii, None, ":", ",", False, False, True
        )
        return "".join(encode(value, 0))

    return loads, dumps


def _plain() -> tuple[Callable[[str], Any], Callable[[Any], str]]:
    import json  # only without the accelerator: json's import costs a bot's start

    def dumps(value: Any) -> str:
        return json.dumps(value, separators=(",", ":"))

    return json.loads, dumps


try:
    loads, dumps = _accelerated()
    dumps({"a": [1, 2.5, None, True, "é"]})
except (ImportError, TypeError):
    loads, dumps = _plain()
