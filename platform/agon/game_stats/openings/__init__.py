"""A seat's opening move (its first action of the match) in a readable form that many
matches share, one module per game: the same choice made on different deals reads the
same (which tile of the market, which kind of building), so that the openings can be
counted. Each module's `label(text, action)` turns the replay viewer's words for the
action (`engine.spectator`) and the action itself into that form; a game without one
shows the viewer's words. Labels are bounded to MAX_LABEL characters."""

from __future__ import annotations

from collections.abc import Callable

from agon.game_stats.openings import akropolis, architekton, attika, megalopolis
from engine.core import JSON

MAX_LABEL = 120
Labeller = Callable[[str, JSON], str]
LABELLERS: dict[str, Labeller] = {
    "akropolis": akropolis.label,
    "architekton": architekton.label,
    "attika": attika.label,
    "megalopolis": megalopolis.label,
}


def opening_label(game_id: str, text: str, action: JSON) -> str:
    labeller = LABELLERS.get(game_id)
    try:
        label = labeller(text, action) if labeller else text
    except (KeyError, TypeError, ValueError):
        label = text
    label = " ".join(label.split())
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"
