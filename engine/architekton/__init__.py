"""Architekton: 2 players build an ancient Greek city of building and landscape tiles."""

from engine.architekton.rules import ARCHITEKTON, Architekton
from engine.architekton.state import ArchitektonState

__all__ = ["ARCHITEKTON", "Architekton", "ArchitektonState"]
