"""A human's legal actions as things to click: each action as the steps that choose it.

Every game's legal actions are plain JSON objects. The page needs them as choices a
person makes one after the other: in Akropolis a tile, then a hex, then where the
tile's second hex goes; in Architekton a tile, a square, a rotation. A small module per
game says, for each action, its steps, each one of

- `["pick", key, label]`: a button (a tile from the site, a stack, a rotation...);
- `["cell", a, b, label]`: a cell of the board (axial `q, r` on a hex board, `x, y` on a
  square one), drawn on the board the page shows beside it;

and what to draw under the cells: the seat's board as `[a, b, text, fill]` cells, and a
few lines of facts (a hand, the cards to pay with). The page narrows the actions step
by step by the choices made (`agon/web/static/web/human_play.js`); the move it sends is
checked against the legal actions again on the server.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.human_games.targets import akropolis, architekton, attika, megalopolis
from agon.human_games.targets.steps import Targets, TargetsFor, plain_targets

MODULES: dict[str, TargetsFor] = {
    "akropolis": akropolis.targets,
    "attika": attika.targets,
    "architekton": architekton.targets,
    "megalopolis": megalopolis.targets,
}


def targets_for(game: str, observation: Any, legal: Sequence[Any]) -> Targets:
    """The legal actions of `game` grouped into steps for the page."""
    return MODULES.get(game, plain_targets)(observation, legal)
