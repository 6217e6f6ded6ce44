"""What a bot may use in one match: time, memory, processes, output.

Each game may change the defaults (engine.spec.GameSpec.limits); a match may override any of
them by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from engine.registry import get_spec

MIB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    turn_seconds: float = 1.0
    """Thinking time per turn before the time bank is drawn on."""
    first_turn_seconds: float = 10.0
    """Allowance for the first turn, which includes the program's start-up."""
    time_bank_seconds: float = 10.0
    """Extra time shared by all turns; a bot that overdraws it times out."""
    memory_bytes: int = 512 * MIB
    """Memory and swap of the whole box."""
    pids: int = 32
    """Processes and threads in the box."""
    log_bytes: int = 256 * 1024
    """stderr kept per bot per match (shown to its owner); the rest is dropped."""
    message_bytes: int = 16 * 1024
    """The longest line a bot may send: its reply. The largest legal action of any game
    is under 100 bytes of JSON (`tests/sandbox/test_reply_limit.py`); the referee reads,
    keeps and parses a reply after the bot's clock has stopped, so this bounds the work
    a bot can make it do for free (1 MiB of padding once cost it 10-40 ms a turn)."""
    scratch_bytes: int = 16 * MIB
    """Room for all the box writes: /tmp and /dev/shm are one tmpfs of this size."""

    def with_overrides(self, overrides: Mapping[str, Any]) -> Limits:
        known = {f.name: f.type for f in fields(self)}
        unknown = sorted(set(overrides) - set(known))
        if unknown:
            raise ValueError(f"unknown limit(s) {', '.join(unknown)}; known: {', '.join(known)}")
        checked: dict[str, Any] = {}
        for name, value in overrides.items():
            current = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise ValueError(f"limit {name} must be a positive number, not {value!r}")
            checked[name] = int(value) if isinstance(current, int) else float(value)
        return replace(self, **checked)

    def to_json(self) -> dict[str, float | int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def limits_for(game_id: str, overrides: Mapping[str, Any] | None = None) -> Limits:
    """The limits of a match of the game: these defaults, then the game's own (its spec's
    `limits`), then the match's overrides."""
    return Limits().with_overrides(get_spec(game_id).limits).with_overrides(overrides or {})
