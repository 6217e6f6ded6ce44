"""The bot protocol: one JSON object per line over the bot's stdin and stdout.

Referee to bot: `start`, then one `turn` per decision, then `end`.
Bot to referee: `{"action": ...}` once per `turn`. stderr is the bot's own log.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence

from engine.core import JSON, EncodedText, JSONValue, compact_json, encoded_text
from engine.players import BotFault
from engine.spec import CompactLegalActions


def encode(message: Mapping[str, JSONValue | EncodedText]) -> bytes:
    """One line of the protocol. A value that is `EncodedJSON` or `EncodedText` (a game's
    observation or compact legal actions) is spliced in as the text it carries: the same
    bytes as encoding it again, without the cost."""
    texts = [encoded_text(value) for value in message.values()]
    if not any(text is not None for text in texts):
        return (compact_json(message) + "\n").encode()
    fields = [
        f"{_key_text(key)}:{_value_text(value) if text is None else text}"
        for (key, value), text in zip(message.items(), texts, strict=True)
    ]
    return ("{" + ",".join(fields) + "}\n").encode()


@functools.lru_cache(maxsize=256)
def _key_text(key: str) -> str:
    """A message's field name as JSON (a handful of names, each encoded once)."""
    return compact_json(key)


def _value_text(value: JSONValue | EncodedText) -> str:
    """A plain field's JSON: an integer (the turn, the time left) is written as itself."""
    return str(value) if type(value) is int else compact_json(value)


def start_message(info: dict[str, JSONValue]) -> dict[str, JSONValue]:
    return {"type": "start", **info}


def legal_actions_json(legal_actions: Sequence[JSON]) -> JSONValue:
    """The legal actions as sent: a game's compact form where it has one, else the list."""
    if isinstance(legal_actions, CompactLegalActions):
        return legal_actions.compact()
    return list(legal_actions)


def turn_message(
    turn: int,
    observation: JSONValue | EncodedText,
    legal_actions: Sequence[JSON],
    time_left_ms: int | None,
) -> dict[str, JSONValue | EncodedText]:
    """The message asking a bot for a move. `turn` counts the bot's own moves from 0 (not
    the game's turns); the bot reads it as `move`, from 1, as fault reports count. The
    `turn` key repeats it from 0 for bots written before `move` (deprecated)."""
    return {
        "type": "turn",
        "move": turn + 1,
        "turn": turn,
        "observation": observation,
        "legal_actions": legal_actions_json(legal_actions),
        "time_left_ms": time_left_ms,
    }


def turn_line(
    turn: int,
    observation: JSONValue | EncodedText,
    legal_actions: Sequence[JSON],
    time_left_ms: int | None,
) -> bytes:
    """`encode(turn_message(...))`, the same bytes, with the compact legal actions taken
    as the text the game writes directly where it does (`compact_text`): what a boxed
    bot is sent."""
    compact_text = getattr(legal_actions, "compact_text", None)
    if compact_text is None:
        return encode(turn_message(turn, observation, legal_actions, time_left_ms))
    seen = encoded_text(observation)
    return (
        f'{{"type":"turn","move":{_value_text(turn + 1)},"turn":{_value_text(turn)},'
        f'"observation":{compact_json(observation) if seen is None else seen},'
        f'"legal_actions":{compact_text()},"time_left_ms":{_value_text(time_left_ms)}}}\n'
    ).encode()


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
