"""The protocol loop behind `agon_bot.run`.

It imports the engine only when a turn's legal actions come in a game's compact form
(whose expansion is the engine's), so that a bot's start pays for the engine only when
its game or the bot itself needs it. For the same reason it imports neither `typing`
nor `json` (each costs a bot's start more than the rest of it: see `agon_bot.wire`)."""

from __future__ import annotations

import sys

from agon_bot.wire import dumps, loads

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import IO, Any, TypeAlias

    from engine.core import JSONValue

    Action: TypeAlias = Any
    ActFunction: TypeAlias = Callable[[Any, Sequence[Action]], Action]
    _JSONObject = dict[str, Any]
else:
    _JSONObject = dict


class Bot:
    """Subclass this for a bot that keeps state between turns; or pass `run` a function."""

    time_left_ms: int | None = None
    """Set before each `act`: the time this turn may take, time bank included."""

    move: int = 0
    """Set before each `act`: which of this bot's own moves it is, 1 for its first (the
    number a fault report gives: "crash on its 3rd move"). The game's turn, which counts
    every seat's moves, is the observation's `turn` where the game has one."""

    def start(self, info: dict[str, Any]) -> None:
        """The match begins: game, your seat (`player`), players, options, limits."""

    def act(self, observation: Any, legal_actions: Sequence[Action]) -> Action:
        raise NotImplementedError

    def end(self, result: dict[str, Any]) -> None:
        """The match is over: scores and ranks per seat."""


class _FunctionBot(Bot):
    def __init__(self, act: ActFunction) -> None:
        self._act = act

    def act(self, observation: Any, legal_actions: Sequence[Action]) -> Action:
        return self._act(observation, legal_actions)


class Observation(_JSONObject):
    """An observation as the game sent it, whose missing keys say what was meant: the
    clock, the legal actions and the turn count come beside the observation, not in it."""

    def __missing__(self, key: str) -> Any:
        where = MISPLACED.get(key)
        if where is None:
            raise KeyError(key)
        raise KeyError(f"{key!r} is not in the observation: {where}")


MISPLACED = {
    "time_left_ms": "the clock is self.time_left_ms on a Bot subclass (set before each act)",
    "move": "your own move count is self.move on a Bot subclass (set before each act)",
    "legal_actions": "the legal actions are act's second argument",
}


def _observation(data: Any) -> Any:
    return Observation(data) if type(data) is dict else data


def log(*parts: object) -> None:
    """A line in your bot's log (stderr), for its owner's eyes only."""
    print(*parts, file=sys.stderr, flush=True)


def evaluation(value: float) -> None:
    """Your bot's own judgement of its turn, in its log as the line `agon-eval V`: its
    chance to win (with more than two seats, its expected share of its meetings with the
    others), from 0 to 1. The match page draws it beside the analysis's curve, for you
    only; the last one of a turn counts. ValueError for a value outside [0, 1]."""
    number = float(value)
    if not 0.0 <= number <= 1.0:  # also refuses nan
        raise ValueError(f"an evaluation is from 0 to 1, not {value!r}")
    text = f"{number:.6f}".rstrip("0").rstrip(".") or "0"
    print(f"agon-eval {text}", file=sys.stderr, flush=True)


def legal_actions_from_message(game_id: str | None, data: JSONValue) -> Sequence[Action]:
    """The legal actions of a turn message as a sequence, expanding a compact form."""
    if isinstance(data, list):
        return data
    if game_id is None:
        raise ValueError("a compact list of legal actions arrived before the start message")
    # The engine only once a compact list arrives: a bot's start is timed.
    from engine.registry import legal_actions_expander

    expand = legal_actions_expander(game_id)
    if expand is None:
        raise ValueError(f"game {game_id} sent a compact form it cannot expand")
    result: Sequence[Action] = expand(data)
    return result


def run(
    bot: Bot | ActFunction, *, stdin: IO[str] | None = None, stdout: IO[str] | None = None
) -> None:
    """Answer the referee's messages until the match ends."""
    player = bot if isinstance(bot, Bot) else _FunctionBot(bot)
    source = stdin or sys.stdin
    sink = stdout or sys.stdout
    game_id: str | None = None
    for line in source:
        if not line.strip():
            continue
        message = loads(line)
        kind = message.get("type")
        if kind == "start":
            game_id = message.get("game")
            player.start(message)
        elif kind == "turn":
            legal = legal_actions_from_message(game_id, message["legal_actions"])
            player.time_left_ms = message.get("time_left_ms")
            # A referee from before `move` sent only `turn`, this bot's moves from 0.
            player.move = message.get("move", message.get("turn", -1) + 1)
            action = player.act(_observation(message["observation"]), legal)
            sink.write(dumps({"action": action}) + "\n")
            sink.flush()
        elif kind == "end":
            player.end(message.get("result", {}))
            return
