"""What a spectator of a match sees: the table at each step, and each action in words.

The web's replay viewer draws these views; like the rest of the engine they are pure
functions of a state. A view is JSON whose dicts always carry the same keys (a value
that may be missing is null), so that two consecutive views differ only in values; the
timeline sends each step as a patch of the one before.

A game declares its spectator in its spec (engine.spec.GameSpec.spectator); one without
a spectator of its own is shown through its text render (TextSpectator).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from engine.core import JSON, Game


@dataclass(frozen=True)
class Explained:
    text: str
    """The action in words, e.g. "took tile 12 for 2 stones and placed it on level 2"."""
    mark: JSON = None
    """What to highlight once it is done (a game's own form, e.g. the cells of a tile)."""


class Spectator(Protocol):
    def view(self, state: Any, *, reveal: bool) -> dict[str, JSON]:
        """The table. With `reveal`, also what the players could not see (their hands,
        face-down tiles): for a finished match. Never the order of face-down stacks."""
        ...

    def explain(self, state: Any, seat: int, action: JSON) -> Explained:
        """`action` by `seat`, from the position before it."""
        ...


class TextSpectator:
    """The fallback: the game's text render, and actions as their JSON."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def view(self, state: Any, *, reveal: bool) -> dict[str, JSON]:
        return {"text": self.game.render_text(state)}

    def explain(self, state: Any, seat: int, action: JSON) -> Explained:
        return Explained(json.dumps(action, sort_keys=True, separators=(", ", ": ")))


def seat_name(seat: int) -> str:
    """How texts name a seat: as the protocol, the replay and the logs do (from 0)."""
    return f"seat {seat}"
