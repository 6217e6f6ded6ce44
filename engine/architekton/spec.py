"""Architekton as Agon shows it: the rules, the spectator, the board and the score table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.architekton.greedy import move_values
from engine.architekton.observation import state_from_observation
from engine.architekton.rules import ARCHITEKTON
from engine.architekton.spectator import ArchitektonSpectator
from engine.architekton.state import ArchitektonState
from engine.spec import GameSpec, ScoreBreakdown


def _cell(value: Any) -> str:
    return "\N{EN DASH}" if value is None else str(value)


def score_breakdown(details: Sequence[Mapping[str, Any]]) -> ScoreBreakdown:
    """Per seat, as the rules page's worked example has it: the points from play, the
    largest chain, the houses kept and the final score (the sum of the first two). A
    player who lost early has no chain counted: its cells are dashes."""
    rows = []
    for detail in details:
        points, chain = detail.get("points", 0), detail.get("largest_group")
        kept = detail.get("houses_kept")
        final = f"{points + (chain or 0)}"
        if detail.get("lost_early"):
            final += " (lost early: ranked last)"
        rows.append([str(points), _cell(chain), _cell(kept), final])
    return ScoreBreakdown(
        ["Points from play", "Largest chain", "Houses kept", "Final score"],
        rows,
        "The final score is the points won and lost while building plus 1 per house in "
        "the largest chain; between equal scores, more houses kept ranks higher.",
    )


SPEC: GameSpec[ArchitektonState] = GameSpec(
    game=ARCHITEKTON,
    blurb="Two builders lay buildings and landscapes in a checkerboard; edges "
    "that match win points, mismatches cost them.",
    spectator_factory=ArchitektonSpectator,
    renderer="architekton",
    protocol_doc=Path(__file__).with_name("protocol.md"),
    score_breakdown=score_breakdown,
    state_from_observation=ARCHITEKTON.state_from_observation,
    sample_state=state_from_observation,
    move_values=move_values,
)
