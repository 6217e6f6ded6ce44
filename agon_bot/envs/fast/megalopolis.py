"""Megalopolis's legal actions' indices from the engine's legal choices and its board,
without the JSON: the same numbers `MegalopolisEncoding.legal_indices` reads from the
observation (board entries by sorted cell code, seats relative to the seat to move)."""

from __future__ import annotations

from typing import Any

import numpy as np

from agon_bot.envs.fast.cells import CodeCells, KeptCells
from engine.megalopolis.actions import ALL_TOKENS, LegalActions
from engine.megalopolis.state import MegalopolisState


class MegalopolisStateReader:
    """`state_legal_indices` of a `MegalopolisEncoding`."""

    def __init__(self, encoding: Any, tiles: int) -> None:
        self.encoding = encoding
        self.players = encoding.players
        self.cells_count = tiles * 4
        self.kept = KeptCells(tiles)

    def cells(self, state: MegalopolisState) -> CodeCells:
        return self.kept.of(state, state.turn, state.board)

    def legal_indices(self, state: MegalopolisState, legal: LegalActions) -> np.ndarray:
        cells = self.cells(state)
        plays = np.zeros(0, np.int64)
        if legal.kinds:
            named = np.array([cells.cell(code) for code in legal.spaces], dtype=np.int64)
            kinds = np.array(legal.kinds, dtype=np.int64) * self.cells_count
            plays = np.add.outer(kinds, named).ravel()
        if not legal.others:
            return plays
        me = state.turn_player
        others = [self.choice_index(choice, cells, me) for choice in legal.others]
        return np.concatenate([plays, np.array(others, dtype=np.int64)])

    def choice_index(self, choice: tuple[Any, ...], cells: CodeCells, me: int) -> int:
        encoding, players = self.encoding, self.players
        kind = choice[0]
        if kind == "hotel":
            return int(encoding.hotel_base + cells.entry[choice[1]])
        if kind == "pass":
            return int(encoding.pass_index)
        if kind == "tile":
            return int(encoding.tile_base + cells.entry[choice[1]])
        if kind == "token":
            owner = choice[2]
            who = players if owner == ALL_TOKENS else (owner - me) % players
            return int(encoding.token_base + cells.entry[choice[1]] * (players + 1) + who)
        if kind == "space":
            return int(encoding.space_base + cells.cell(choice[1]))
        if kind == "player":
            return int(encoding.player_base + (choice[1] - me) % players)
        if kind == "done":
            return int(encoding.done_index)
        if kind == "play":
            return int(choice[1] * self.cells_count + cells.cell(choice[2]))
        raise ValueError(f"not a Megalopolis choice: {choice}")
