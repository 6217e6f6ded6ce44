"""One row per decision of a match, drawn from its replay as each seat saw it.

The replay is played again through the engine (`engine.replay.replay_states`), and at
each decision the row takes what the referee sent the seat to move: the engine's
observation for that seat alone, as the bot protocol's JSON text
(`Game.observation_text`, byte for byte what a boxed bot read), and the legal actions
it was offered. Nothing else of the state goes in: no other seat's hand, no face-down
pile, no seed, and never a bot's log.

Pure code over the engine (no Django): the platform's build and the tests use it alike.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import JSON, compact_json
from engine.registry import get_game
from engine.replay import Replay, replay_states


@dataclass(frozen=True)
class SeatFacts:
    """What the platform knows of a seat beyond the replay."""

    bot: str
    """The bot version's digest (`sha256:<hex>` of its archive) or `builtin:<name>`."""
    rank: int | None
    score: int | None
    thinking_seconds: float | None
    turn_milliseconds: Sequence[int] = ()
    """How long each of the seat's turns took (the referee's timing; empty if unknown)."""


@dataclass(frozen=True)
class MatchFacts:
    match_id: int
    kind: str
    seats: Sequence[SeatFacts]


def fallback_moves(replay: Replay) -> dict[int, int]:
    """Each faulted seat's first move (counted from 1) played by the referee's stand-in
    (`engine.match.fallback_bot`), not by its bot: the move it faulted on."""
    first: dict[int, int] = {}
    for fault in replay.faults:
        seat, move = fault.get("seat"), fault.get("move")
        if isinstance(seat, int) and isinstance(move, int):
            first[seat] = min(move, first.get(seat, move))
    return first


def _index_of(action: JSON, legal: Sequence[JSON]) -> int:
    try:
        return list(legal).index(action)
    except ValueError:
        # A legal action given as a tuple, say, where the replay holds a list.
        text = compact_json(action)
        for index, offered in enumerate(legal):
            if compact_json(offered) == text:
                return index
    return -1


def decision_rows(replay: Replay, facts: MatchFacts) -> Iterator[dict[str, Any]]:
    """The match's decisions in order, one row each (ReplayError if the replay does not
    play through this engine)."""
    game = get_game(replay.game)
    options = compact_json(replay.options)
    fallback_from = fallback_moves(replay)
    moves = [0] * replay.players
    states = replay_states(replay)
    state = next(states)
    for step, action in enumerate(replay.actions):
        seat = game.current_player(state)
        moves[seat] += 1
        legal = game.legal_actions(state)
        facts_of_seat = facts.seats[seat]
        by_stand_in = moves[seat] >= fallback_from.get(seat, moves[seat] + 1)
        timed = facts_of_seat.turn_milliseconds
        yield {
            "match_id": facts.match_id,
            "kind": facts.kind,
            "rules_version": replay.engine_version,
            "options": options,
            "players": replay.players,
            "seat": seat,
            "step": step,
            "turn": game.turn_number(state),
            "bot": facts_of_seat.bot,
            "by_stand_in": by_stand_in,
            "observation": game.observation_text(state, seat),
            "legal_actions": len(legal),
            "action": compact_json(action),
            "action_index": _index_of(action, legal),
            "time_used_ms": (
                timed[moves[seat] - 1] if moves[seat] <= len(timed) and not by_stand_in else None
            ),
            "seat_thinking_seconds": facts_of_seat.thinking_seconds,
            "final_rank": facts_of_seat.rank,
            "final_score": facts_of_seat.score,
        }
        state = next(states)


def seat_facts(seats: Mapping[int, SeatFacts], players: int) -> list[SeatFacts]:
    """The seats in order; a seat the platform has no row for (never, but a replay is
    read from storage) is unknown rather than another seat's."""
    unknown = SeatFacts(bot="unknown", rank=None, score=None, thinking_seconds=None)
    return [seats.get(seat, unknown) for seat in range(players)]
