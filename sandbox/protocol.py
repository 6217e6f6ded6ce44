"""The bot protocol: one JSON object per line over the bot's stdin and stdout.

Referee to bot: `start`, then one `turn` per decision, then `end`.
Bot to referee: `{"action": ...}` once per `turn`. stderr is the bot's own log.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

from engine.core import JSON, JSONValue
from engine.players import BotFault
from engine.spec import CompactLegalActions


def encode(message: dict[str, JSONValue]) -> bytes:
    return json.dumps(message, separators=(",", ":"), allow_nan=False).encode() + b"\n"


def start_message(info: dict[str, JSONValue]) -> dict[str, JSONValue]:
    return {"type": "start", **info}


def legal_actions_json(legal_actions: Sequence[JSON]) -> JSONValue:
    """The legal actions as sent: a game's compact form where it has one, else the list."""
    if isinstance(legal_actions, CompactLegalActions):
        return legal_actions.compact()
    return list(legal_actions)


def turn_message(
    turn: int, observation: JSONValue, legal_actions: Sequence[JSON], time_left_ms: int | None
) -> dict[str, JSONValue]:
    return {
        "type": "turn",
        "turn": turn,
        "observation": observation,
        "legal_actions": legal_actions_json(legal_actions),
        "time_left_ms": time_left_ms,
    }


def end_message(result: dict[str, JSONValue]) -> dict[str, JSONValue]:
    return {"type": "end", "result": result}


def parse_reply(line: bytes) -> JSONValue:
    """The action in a bot's reply line; BotFault("bad_output") if it is not one.

    Whatever the decoder refuses is the bot's bad output, not a crash: besides syntax
    errors (ValueError, as UnicodeDecodeError and JSONDecodeError are), an integer longer
    than Python converts (also a ValueError), nesting deeper than it follows
    (RecursionError), and the non-standard NaN and Infinity or a float too large for a
    double, which no JSON value may be."""
    try:
        reply: JSONValue = json.loads(
            line, parse_constant=_refuse_constant, parse_float=_finite_float
        )
    except (ValueError, RecursionError) as error:
        raise BotFault("bad_output", f"not a JSON line: {error}: {line[:200]!r}") from None
    if not isinstance(reply, dict) or "action" not in reply:
        raise BotFault("bad_output", f'expected {{"action": ...}}, got {line[:200]!r}')
    return reply["action"]


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is too large for a number")
    return value
