"""Architekton as Agon shows it: the rules, the spectator and the board."""

from __future__ import annotations

from pathlib import Path

from engine.architekton.rules import ARCHITEKTON
from engine.architekton.spectator import ArchitektonSpectator
from engine.architekton.state import ArchitektonState
from engine.spec import GameSpec

SPEC: GameSpec[ArchitektonState] = GameSpec(
    game=ARCHITEKTON,
    blurb="Two builders lay buildings and landscapes in a checkerboard; edges "
    "that match win points, mismatches cost them.",
    spectator_factory=ArchitektonSpectator,
    renderer="architekton",
    protocol_doc=Path(__file__).with_name("protocol.md"),
    state_from_observation=ARCHITEKTON.state_from_observation,
)
