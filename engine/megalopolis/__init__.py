"""Megalopolis (seed game 004): 2-6 players take over a city of 120 tiles with powers."""

from engine.megalopolis.rules import MEGALOPOLIS, Megalopolis
from engine.megalopolis.state import MegalopolisState

__all__ = ["MEGALOPOLIS", "Megalopolis", "MegalopolisState"]
