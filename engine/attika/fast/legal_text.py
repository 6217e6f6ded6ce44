"""Fast path of `compact_json(legal.compact())`: the legal actions as the JSON text the
bot protocol sends, written from each building's, cell's and action's text, kept.
Checked against the plain encoding by tests/engine/attika/fast/test_message_text.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from engine.attika.actions import (
    AMPHORA_ACTION,
    AMPHORA_CARD,
    DRAW_ACTIONS,
    END_TURN,
    KEEP,
    LegalActions,
    TilePlacements,
    extend_action,
)
from engine.attika.components import BUILDINGS
from engine.core import compact_json
from engine.hexgrid import decode


class _CellTexts(dict[int, str]):
    """Cell code -> its `[q,r]` JSON text, written the first time it is asked for."""

    def __missing__(self, cell: int) -> str:
        text = self[cell] = "[{},{}]".format(*decode(cell))
        return text


CELL_TEXT = _CellTexts()
BUILDING_TEXT = tuple(compact_json(building.id) for building in BUILDINGS)

_CONSTANT_TEXTS: dict[int, str] = {
    id(action): compact_json(action)
    for action in (*DRAW_ACTIONS, KEEP, AMPHORA_ACTION, AMPHORA_CARD, END_TURN)
}
"""The JSON text of each action above, by the object's identity: the legal actions list
these very objects (never changed; callers are given copies), and most turns offer
nothing else besides the builds."""


class LegalActionsText(LegalActions):
    """The legal actions as `turns.legal_actions` gives them: `actions.LegalActions` that
    also write their compact form as JSON text."""

    __slots__ = ()

    def compact_text(self) -> str:
        """`compact_json(self.compact())`, written from each building's and cell's text."""
        cell_text = CELL_TEXT.__getitem__
        builds = ",".join(
            f'{{"building":{BUILDING_TEXT[b]},"cells":[{",".join(map(cell_text, cells))}]}}'
            for b, cells in self.builds
        )
        return f'{{"actions":{_others_text(self.others)},"builds":[{builds}]}}'


def _others_text(others: Sequence[dict[str, Any]]) -> str:
    """The non-build actions as JSON text: a tile's placements from their kept texts,
    the usual few actions from `_CONSTANT_TEXTS`, anything else encoded."""
    if type(others) is TilePlacements:
        return tile_placements_text(others)
    texts = list(map(_CONSTANT_TEXTS.get, map(id, others)))
    if None in texts:
        return compact_json(list(others))
    return f"[{','.join(cast(list[str], texts))}]"


def tile_placements_text(placements: TilePlacements) -> str:
    """`compact_json(list(placements))`, from each centre's actions' text, kept (the same
    centres and rotations are offered turn after turn until a tile is placed)."""
    texts = _EXTEND_TEXTS.get(placements.rotations)
    if texts is None:
        texts = _EXTEND_TEXTS[placements.rotations] = _ExtendTexts(placements.rotations)
    return f"[{','.join(map(texts.__getitem__, placements.centres))}]"


class _ExtendTexts(dict[int, str]):
    """Centre -> the JSON text of its extend actions with these rotations, written the
    first time it is asked for (as `compact_json` writes them)."""

    def __init__(self, rotations: Sequence[int]) -> None:
        super().__init__()
        self.rotations = rotations

    def __missing__(self, centre: int) -> str:
        text = self[centre] = ",".join(
            compact_json(extend_action(centre, rotation)) for rotation in self.rotations
        )
        return text


_EXTEND_TEXTS: dict[Sequence[int], _ExtendTexts] = {}
"""The kept texts per rotations offered (a few tuples in all)."""
