"""Attika: 2-4 players build their cities on a map that grows, linking shrines."""

from engine.attika.rules import ATTIKA, Attika
from engine.attika.state import AttikaState

__all__ = ["ATTIKA", "Attika", "AttikaState"]
