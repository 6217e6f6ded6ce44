"""Replays: a header, the actions, the faults and the result; verified by re-running.

A replay holds no timestamps, host names or paths: the same match gives the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from engine.core import JSON, IllegalAction, ranks_with_faults
from engine.registry import get_game

REPLAY_FORMAT = "agon-replay/1"


class ReplayError(ValueError):
    """A replay that is malformed or does not reproduce."""


@dataclass
class Replay:
    game: str
    engine_version: str
    seed: int
    players: int
    options: dict[str, JSON]
    bots: list[str]
    actions: list[JSON]
    faults: list[dict[str, JSON]] = field(default_factory=list)
    result: dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {"format": REPLAY_FORMAT, **asdict(self)}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":")) + "\n"

    def write(self, path: Path) -> None:
        path.write_text(self.dumps(), encoding="utf-8")

    @classmethod
    def from_json(cls, data: Any) -> Replay:
        if not isinstance(data, dict) or data.get("format") != REPLAY_FORMAT:
            raise ReplayError(f"not an Agon replay (expected format {REPLAY_FORMAT!r})")
        expected = {
            "game": str,
            "engine_version": str,
            "seed": int,
            "players": int,
            "options": dict,
            "bots": list,
            "actions": list,
            "faults": list,
            "result": dict,
        }
        for key, kind in expected.items():
            if not isinstance(data.get(key), kind):
                raise ReplayError(f"replay field {key!r} is missing or not a {kind.__name__}")
        return cls(**{key: data[key] for key in expected})

    @classmethod
    def load(cls, path: Path) -> Replay:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ReplayError(f"cannot read replay {path}: {error}") from error
        return cls.from_json(data)


def replay_states(replay: Replay) -> Iterator[Any]:
    """The state before the first action, then after each action (the same object, mutated)."""
    game = get_game(replay.game)
    if replay.engine_version != str(game.rules_version):
        raise ReplayError(
            f"replay was made by version {replay.engine_version} of {game.name}'s rules; "
            f"this engine plays version {game.rules_version} (docs/rules/{game.id}-decisions.md "
            "says what changed)"
        )
    try:
        state = game.new_state(replay.seed, replay.players, replay.options)
    except ValueError as error:
        raise ReplayError(f"the replay's setup is invalid: {error}") from error
    yield state
    for index, action in enumerate(replay.actions):
        if game.is_over(state):
            raise ReplayError(f"action {index} comes after the end of the game")
        seat = game.current_player(state)
        try:
            game.apply(state, action)
        except IllegalAction as error:
            raise ReplayError(f"action {index} by player {seat} is illegal: {error}") from error
        yield state


def verify_replay(replay: Replay) -> None:
    """Re-run the replay; ReplayError unless every action is legal and the result matches."""
    game = get_game(replay.game)
    state = None
    for state in replay_states(replay):  # noqa: B007 - the last state is the one wanted
        pass
    if state is None or not game.is_over(state):
        raise ReplayError(
            f"the replay stops before the end of the game ({len(replay.actions)} actions)"
        )
    result = game.result(state)
    faulted = _faulted_seats(replay)
    expected = {
        "scores": result.scores,
        "ranks": ranks_with_faults(result, faulted),
        "details": result.details,
    }
    for key, value in expected.items():
        if replay.result.get(key) != value:
            raise ReplayError(
                f"the stored result does not reproduce: {key} is {replay.result.get(key)!r}, "
                f"the engine gives {value!r}"
            )


def _faulted_seats(replay: Replay) -> set[int]:
    seats = set()
    for index, fault in enumerate(replay.faults):
        seat = fault.get("seat") if isinstance(fault, dict) else None
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < replay.players:
            raise ReplayError(f"fault {index} does not name a seat of the match: {fault!r}")
        seats.add(seat)
    return seats
