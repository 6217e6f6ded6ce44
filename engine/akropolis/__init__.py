"""Akropolis: 2-4 players build cities of hex tiles, stacking them for height."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.akropolis.spec import AKROPOLIS, Akropolis
    from engine.akropolis.state import AkropolisState

__all__ = ["AKROPOLIS", "Akropolis", "AkropolisState"]

_HOMES = {
    "AKROPOLIS": "engine.akropolis.spec",
    "Akropolis": "engine.akropolis.spec",
    "AkropolisState": "engine.akropolis.state",
}


def __getattr__(name: str) -> Any:
    # Loaded when first asked for, so that `engine.akropolis.compact` (a bot's first
    # turn) comes without the rest of the game.
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
