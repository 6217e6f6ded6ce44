"""Akropolis: 2-4 players build cities of hex tiles, stacking them for height."""

from engine.akropolis.spec import AKROPOLIS, Akropolis
from engine.akropolis.state import AkropolisState

__all__ = ["AKROPOLIS", "Akropolis", "AkropolisState"]
