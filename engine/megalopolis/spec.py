"""Megalopolis as Agon shows it: the rules, the spectator and the city."""

from __future__ import annotations

from pathlib import Path

from engine.megalopolis.greedy import move_values
from engine.megalopolis.observation import state_from_observation
from engine.megalopolis.rules import MEGALOPOLIS
from engine.megalopolis.spectator import MegalopolisSpectator
from engine.megalopolis.state import MegalopolisState
from engine.spec import GameSpec

SPEC: GameSpec[MegalopolisState] = GameSpec(
    game=MEGALOPOLIS,
    blurb="Play tiles with powers, place your tokens and control the largest "
    "groups of the city, from 2 to 6 players.",
    spectator_factory=MegalopolisSpectator,
    renderer="megalopolis",
    protocol_doc=Path(__file__).with_name("protocol.md"),
    legal_actions_from_json=MEGALOPOLIS.legal_actions_from_json,
    state_from_observation=MEGALOPOLIS.state_from_observation,
    sample_state=state_from_observation,
    move_values=move_values,
)
