"""Akropolis: 2-4 players build cities of hex tiles, stacking them for height."""

from __future__ import annotations

from engine.lazy import lazy_names

TYPE_CHECKING = False  # not typing's: a bot's start imports no `typing` (agon_bot.wire)
if TYPE_CHECKING:
    from engine.akropolis.spec import AKROPOLIS, Akropolis
    from engine.akropolis.state import AkropolisState

__all__ = ["AKROPOLIS", "Akropolis", "AkropolisState"]

_HOMES = {
    "AKROPOLIS": "engine.akropolis.spec",
    "Akropolis": "engine.akropolis.spec",
    "AkropolisState": "engine.akropolis.state",
}


__getattr__ = lazy_names(__name__, _HOMES)
