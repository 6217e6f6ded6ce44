"""Fast path of `state_json.board_to_json(state, hide_face_down=True)` as JSON text: the
board as a message shows it, kept on the state and rewritten where tiles changed.

A message's board is one text per tile (`tile_text`: its cell, serial, kind if face up,
tokens), in cell order. Most tiles are the same from one turn to the next, so the state's
caches keep the texts last written (`Caches.board_text`) and the cells changed since:
every change of a tile on the table goes through `table` (a tile placed, taken, moved or
turned face up, tokens put, returned or moved), which marks its cell
(`Caches.tile_changed`). A state without kept texts (new, a copy, read from JSON) marks
nothing, so playouts pay one test per change; its first message writes every tile.
Checked against the plain JSON by tests/engine/megalopolis/fast/test_board_text.py.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.core import compact_json
from engine.megalopolis.components import ALL_TILES, KIND_NAMES
from engine.megalopolis.state import MegalopolisState, Tile
from engine.squaregrid import decode

KIND_TEXT = tuple(compact_json(name) for name in KIND_NAMES)
"""Each kind's name as JSON text."""

ALL_COUNTS = tuple(ALL_TILES.count(kind) for kind in range(len(KIND_NAMES)))
"""Tiles of each kind in the game."""


@dataclass(slots=True)
class BoardText:
    """The board's text as last written, and the cells whose tile changed since."""

    order: list[int]
    """The occupied cells, sorted."""
    texts: list[str]
    """The text of the tile at each cell of `order`."""
    shown: dict[int, int]
    """Cell -> the kind of the tile there if face up, else -1."""
    not_face_up: list[int]
    """Per kind, the tiles not face up on the board."""
    joined: str = ""
    """`texts`, comma-separated."""
    changed: set[int] = field(default_factory=set)
    """Cells whose tile was placed, taken, moved, turned or had its tokens changed since
    `joined` was written (`Caches.tile_changed`)."""

    @classmethod
    def written(cls, board: dict[int, Tile]) -> BoardText:
        kept = cls([], [], {}, list(ALL_COUNTS))
        kept.rewrite(board, sorted(board))
        return kept

    def rewrite(self, board: dict[int, Tile], cells: Iterable[int]) -> None:
        """Write again the tiles at these cells (dropping those gone), then the whole."""
        order, texts, shown, not_face_up = self.order, self.texts, self.shown, self.not_face_up
        for code in cells:
            at = bisect.bisect_left(order, code)
            was_there = at < len(order) and order[at] == code
            if was_there and shown[code] >= 0:
                not_face_up[shown[code]] += 1
            tile = board.get(code)
            if tile is None:
                if was_there:
                    del order[at], texts[at], shown[code]
                continue
            kind = tile.kind if tile.face_up else -1
            if kind >= 0:
                not_face_up[kind] -= 1
            shown[code] = kind
            text = tile_text(code, tile.serial, kind, tile.tokens)
            if was_there:
                texts[at] = text
            else:
                order.insert(at, code)
                texts.insert(at, text)
        self.joined = ",".join(texts)
        self.changed.clear()


def board_text(state: MegalopolisState) -> tuple[str, list[int]]:
    """The board as an observation shows it (`board_to_json`, face-down kinds hidden), as
    JSON text; and per kind, the tiles not face up on it (a new list). From the texts
    kept on the state, the changed tiles written again."""
    kept = state.caches.board_text
    if kept is None:
        kept = state.caches.board_text = BoardText.written(state.board)
    elif kept.changed:
        kept.rewrite(state.board, list(kept.changed))
    return kept.joined, list(kept.not_face_up)


def tile_text(code: int, serial: int, kind: int, tokens: list[int]) -> str:
    """A board tile as an observation shows it (`tile_to_json`; `kind` -1 for a face-down
    tile, whose kind is hidden), as JSON text."""
    x, y = decode(code)
    shown = "false" if kind < 0 else f'true,"kind":{KIND_TEXT[kind]}'
    return (
        f'{{"x":{x},"y":{y},"serial":{serial},"face_up":{shown},'
        f'"tokens":[{",".join(map(str, tokens))}]}}'
    )
