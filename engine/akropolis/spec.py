"""Akropolis as Agon shows it: the rules, the spectator, the board and the score table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.akropolis.rules import AKROPOLIS
from engine.akropolis.spectator import AkropolisSpectator
from engine.akropolis.state import AkropolisState
from engine.spec import GameSpec, ScoreBreakdown

COLORS = ("house", "market", "barracks", "temple", "garden")


def score_breakdown(details: Sequence[Mapping[str, Any]]) -> ScoreBreakdown:
    """Per seat: each district colour's value x stars = points, the stones, the total."""
    rows = []
    for detail in details:
        colors = detail.get("colors", {})
        cells = []
        for color in COLORS:
            scored = colors.get(color, {})
            value, stars = scored.get("value", 0), scored.get("stars", 0)
            cells.append(f"{value} \N{MULTIPLICATION SIGN} {stars} = {scored.get('points', 0)}")
        rows.append([*cells, str(detail.get("stones", 0)), str(detail.get("total", 0))])
    return ScoreBreakdown(
        [*(color.capitalize() for color in COLORS), "Stones", "Total"],
        rows,
        "Each district colour scores the value of its districts (their levels) times the "
        "stars of its plazas; each stone is a point.",
    )


SPEC: GameSpec[AkropolisState] = GameSpec(
    game=AKROPOLIS,
    blurb="Build a city of hex tiles, stack them for height and buy the best ones "
    "with stones; districts score by level and by the stars of their plazas.",
    spectator_factory=AkropolisSpectator,
    renderer="akropolis",
    protocol_doc=Path(__file__).with_name("protocol.md"),
    score_breakdown=score_breakdown,
    legal_actions_from_json=AKROPOLIS.legal_actions_from_json,
    state_from_observation=AKROPOLIS.state_from_observation,
    score_json=AKROPOLIS.score_json,
    scores=AKROPOLIS.scores,
    score=AKROPOLIS.score,
)
