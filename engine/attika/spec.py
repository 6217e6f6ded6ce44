"""Attika as Agon shows it: the rules, the spectator and the map."""

from __future__ import annotations

from pathlib import Path

from engine.attika.greedy import move_values, standing
from engine.attika.observation import state_from_observation
from engine.attika.rules import ATTIKA
from engine.attika.spectator import AttikaSpectator
from engine.attika.state import AttikaState
from engine.spec import GameSpec

SPEC: GameSpec[AttikaState] = GameSpec(
    game=ATTIKA,
    blurb="Grow Athens across a hex map made during play: draw and build 30 buildings "
    "with landscape cards, or link two shrines first.",
    spectator_factory=AttikaSpectator,
    renderer="attika",
    protocol_doc=Path(__file__).with_name("protocol.md"),
    legal_actions_from_json=ATTIKA.legal_actions_from_json,
    state_from_observation=ATTIKA.state_from_observation,
    sample_state=state_from_observation,
    move_values=move_values,
    standing=standing,
)
