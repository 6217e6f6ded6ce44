"""Nim as Agon shows it: rules, spectator, the text render in the viewer, its protocol."""

from __future__ import annotations

from pathlib import Path

from engine.spec import GameSpec
from tests.games.nim.rules import NIM, NimState
from tests.games.nim.spectator import NimSpectator

SPEC: GameSpec[NimState] = GameSpec(
    game=NIM,
    blurb="Take one to three stones from the pile; whoever takes the last one wins.",
    spectator_factory=NimSpectator,
    protocol_doc=Path(__file__).with_name("protocol.md"),
    limits={"turn_seconds": 2.0},
)
