"""Play one match between bot objects, turning every bot failure into recorded data.

This is the referee's loop without any I/O: boxes, pipes and clocks belong to the
sandbox, which wraps each bot program in a `Player` (`engine.players`) that raises
`BotFault` when the program times out, crashes or talks nonsense.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import JSON, EncodedText, Game, IllegalAction, JSONValue, ranks_with_faults
from engine.players import BotFault, Player, RandomBot
from engine.replay import Replay
from engine.rng import derive_seed

MAX_DETAIL_CHARS = 300
"""The most a fault's detail keeps: a bot makes it (an illegal action is quoted), and it
is stored and shown with every match."""
MAX_ACTION_DEPTH = 32
"""Deeper nesting than any game's action has: refused before the game or a JSON encoder
has to walk it."""


@dataclass(frozen=True)
class Fault:
    seat: int
    kind: str
    detail: str
    turn: int
    """The game's turn, counted from 0 over every seat's moves (the observation's `turn`)."""
    move: int | None = None
    """The faulted seat's own move, counted from 1 (its 3rd move is 3)."""

    def __post_init__(self) -> None:
        # The one place every fault passes: what a bot can put in a detail is bounded
        # and printable before it reaches a replay, a database or a page.
        object.__setattr__(self, "detail", bounded_detail(self.detail))

    def to_json(self) -> dict[str, JSON]:
        shown: dict[str, JSON] = {
            "seat": self.seat,
            "kind": self.kind,
            "detail": self.detail,
            "turn": self.turn,
        }
        if self.move is not None:
            shown["move"] = self.move
        return shown


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st..."""
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def fault_when(fault: Mapping[str, Any]) -> str:
    """When a fault came, saying which count it means: "on its 3rd move (game turn 4)";
    a fault recorded before moves were counted names the game turn alone."""
    move = fault.get("move")
    if isinstance(move, int) and not isinstance(move, bool):
        return f"on its {ordinal(move)} move (game turn {fault.get('turn')})"
    return f"on game turn {fault.get('turn')}"


def fault_reason(fault: Mapping[str, Any]) -> str:
    """A fault as one line: "crash on its 3rd move (game turn 4): RuntimeError"."""
    return f"{fault.get('kind')} {fault_when(fault)}: {fault.get('detail')}"


def bounded_detail(text: str, limit: int = MAX_DETAIL_CHARS) -> str:
    """`text` cut to `limit` characters with a note of how many more there were, and
    every character that is not printable (NUL and other controls, lone surrogates, line
    breaks) written as an escape, so that any database, JSON encoder or page takes it."""
    if len(text) <= limit and text.isprintable():
        return text
    shown: list[str] = []
    used = 0
    for index, char in enumerate(text):
        piece = char if char.isprintable() else _escape(char)
        if used + len(piece) > limit:
            return "".join(shown) + f"... ({len(text) - index} more characters)"
        shown.append(piece)
        used += len(piece)
    return "".join(shown)


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def fallback_bot(seed: int, seat: int) -> Player:
    """Plays a faulted seat's remaining turns, the same way on every run."""
    return RandomBot(derive_seed(seed, "fallback", seat))


def as_json_value(action: Any) -> JSONValue:
    """The action as plain JSON, so what is recorded is what a replay will feed back.
    ValueError if it is not one: nested too deep, a float that is not finite, an integer
    too long to write (Python's digits limit), a key that is not a string or number."""
    _check_depth(action, MAX_ACTION_DEPTH)
    try:
        value: JSONValue = json.loads(json.dumps(action, allow_nan=False))
    except RecursionError:
        raise ValueError("nested too deep") from None
    return value


def _check_depth(value: Any, depth: int) -> None:
    if isinstance(value, dict | list | tuple):
        if depth == 0:
            raise ValueError(f"nested more than {MAX_ACTION_DEPTH} deep")
        for item in value.values() if isinstance(value, dict) else value:
            _check_depth(item, depth - 1)


def play_match(
    game: Game[Any],
    *,
    seed: int,
    players: int,
    options: dict[str, JSON],
    bots: Sequence[Player],
    bot_ids: Sequence[str],
    on_turn: Callable[[Any, int, JSON], None] | None = None,
) -> Replay:
    """Play to the end. `on_turn(state, seat, action)` is told of every applied action."""
    if len(bots) != players or len(bot_ids) != players:
        raise ValueError(f"{players} players need {players} bots")
    state = game.new_state(seed, players, options)
    # No seed here: it fixes the order of the hidden stacks.
    info = {"game": game.id, "players": players, "options": state_options(game, state)}
    for seat, bot in enumerate(bots):
        _guarded(functools.partial(bot.start, {**info, "player": seat}))
    faults: list[Fault] = []
    stand_ins: dict[int, Player] = {}
    actions: list[JSON] = []
    moves = [0] * players
    while not game.is_over(state):
        seat = game.current_player(state)
        turn = game.turn_number(state)
        moves[seat] += 1
        legal = game.legal_actions(state)
        action: JSON = None
        if seat not in stand_ins:
            try:
                observation = observation_for(game, state, seat, bots[seat])
                action = _bot_action(bots[seat], observation, legal)
                game.apply(state, action)
            except BotFault as fault:
                faults.append(Fault(seat, fault.kind, fault.detail, turn, moves[seat]))
            except IllegalAction as error:
                faults.append(Fault(seat, "illegal_action", str(error), turn, moves[seat]))
            except (TypeError, ValueError, RecursionError) as error:
                faults.append(
                    Fault(seat, "bad_output", f"not an action: {error}", turn, moves[seat])
                )
            except Exception as error:  # the game choked on what the bot sent
                faults.append(
                    Fault(seat, "crash", f"{type(error).__name__}: {error}", turn, moves[seat])
                )
            else:
                actions.append(action)
                if on_turn:
                    on_turn(state, seat, action)
                continue
            stand_ins[seat] = fallback_bot(seed, seat)
        action = as_json_value(stand_ins[seat].act(game.observation(state, seat), legal))
        game.apply(state, action)
        actions.append(action)
        if on_turn:
            on_turn(state, seat, action)
    result = game.result(state)
    ranks = ranks_with_faults(result, {fault.seat for fault in faults})
    final = {"scores": result.scores, "ranks": ranks, "details": result.details}
    for bot in bots:
        _guarded(functools.partial(bot.end, final))
    return Replay(
        game=game.id,
        engine_version=str(game.rules_version),
        seed=seed,
        players=players,
        options=state_options(game, state),
        bots=list(bot_ids),
        actions=actions,
        faults=[fault.to_json() for fault in faults],
        result=final,
    )


def observation_for(game: Game[Any], state: Any, seat: int, bot: Player) -> JSON:
    """What the bot at `seat` is shown: for a bot that sends it on unread, only its JSON
    text (`Game.observation_text`); else the observation."""
    if bot.takes_encoded:
        return EncodedText(game.observation_text(state, seat))
    return game.observation(state, seat)


def _bot_action(bot: Player, observation: JSON, legal: Sequence[JSON]) -> JSON:
    """The bot's action as plain JSON; BotFault when the bot fails or answers non-JSON.

    A TypeError or ValueError raised inside `act` is the bot's own bug (a crash), not an
    answer that failed to serialize (bad output), so the two are told apart here.
    """
    try:
        reply = bot.act(observation, legal)
    except BotFault:
        raise
    except Exception as error:  # an in-process bot's own bug
        raise BotFault("crash", f"{type(error).__name__}: {error}") from error
    try:
        return as_json_value(reply)
    except (TypeError, ValueError) as error:
        raise BotFault("bad_output", f"not a JSON action: {error}") from error


def state_options(game: Game[Any], state: Any) -> dict[str, JSON]:
    """The options as the game normalized them (defaults filled in)."""
    options: dict[str, JSON] = game.state_to_json(state)["options"]
    return options


def _guarded(call: Callable[[], None]) -> None:
    # start/end notices are courtesies: a bot failing them is caught on its next turn.
    with contextlib.suppress(Exception):
        call()
