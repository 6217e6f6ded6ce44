"""Megalopolis's encodings from the engine's state, without the JSON: the legal
actions' indices from the engine's legal choices and its board (entries by sorted cell
code, seats relative to the seat to move), and the vector written as one list."""

from __future__ import annotations

import struct
from collections import Counter
from typing import Any

import numpy as np

from agon_bot.envs.fast.cells import CodeCells, KeptCells
from engine.megalopolis.actions import ALL_TOKENS, LegalActions
from engine.megalopolis.components import ALL_TILES, KIND_NAMES
from engine.megalopolis.observation import temple_hand_shown
from engine.megalopolis.state import MegalopolisState, known
from engine.squaregrid import decode


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
            named = np.array(cells.cells(legal.spaces), dtype=np.int64)
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


class MegalopolisVectors:
    """`encode_state` of a `MegalopolisEncoding`: the vector written as one list (what
    `observation()` shows: face-down kinds hidden, a Library's tiles to the turn's
    player only)."""

    def __init__(self, encoding: Any, reader: MegalopolisStateReader) -> None:
        self.reader = reader
        self.players = encoding.players
        self.size = encoding.observation_size
        self.at = {name: start for name, (start, _) in encoding.offsets.items()}
        self.pack = struct.Struct(f"<{self.size}f").pack
        self.end_reasons = {reason: n for n, reason in enumerate(encoding.end_reasons)}
        self.kinds = len(KIND_NAMES)
        self.all_tiles = Counter(ALL_TILES)

    def encode(self, state: MegalopolisState, seat: int) -> np.ndarray:
        players, at = self.players, self.at
        values = [0.0] * self.size
        board = state.board
        cells = self.reader.cells(state)
        width = 5 + players
        start = at["board"]
        seen: Counter[int] = Counter()
        for n, code in enumerate(cells.codes):
            tile = board[code]
            tokens = tile.tokens
            x, y = decode(code)
            where = start + width * n
            if tile.face_up:
                seen[tile.kind] += 1
                values[where : where + width] = (
                    1, x, y, 1, 1 + tile.kind, *tokens[seat:], *tokens[:seat]
                )  # fmt: skip
            else:
                values[where : where + width] = (1, x, y, 0, 0, *tokens[seat:], *tokens[:seat])
        hand = state.hands[seat]
        seen.update(hand)
        start = at["hand"]
        for kind in hand:
            values[start + kind] += 1
        turn_player = state.turn_player
        if seat == turn_player:
            for frame in state.stack:
                seen.update(frame.looked)
                if temple_hand_shown(state, frame, seat):
                    seen.update(state.hands[known(frame.player, "player")])
        unseen = self.all_tiles.copy()
        unseen.subtract(seen)
        start = at["unseen"]
        for kind, count in unseen.items():
            values[start + kind] = count
        start = at["seats"]
        for rank in range(players):
            who = (seat + rank) % players
            values[start + 2 * rank : start + 2 * rank + 2] = (
                len(state.hands[who]),
                state.supply[who],
            )
        last, final = state.last_token_by, state.final_round
        start = at["scalars"]
        values[start : start + 13] = (
            state.turn,
            state.turns_played,
            (turn_player - seat) % players,
            (turn_player - seat) % players,
            (state.first_player - seat) % players,
            len(state.deck),
            state.resolving,
            state.factory_draws,
            0 if last is None else 1 + (last - seat) % players,
            state.passes,
            state.over,
            self.end_reasons[state.end_reason],
            0 if final is None else len(final),
        )
        stack = state.stack
        if stack:
            top = stack[-1]
            chosen = None
            if top.chosen is not None:
                serials = {board[code].serial: i for i, code in enumerate(cells.codes)}
                chosen = serials.get(top.chosen)
            player = top.player
            start = at["frame"]
            values[start : start + 7] = (
                len(stack),
                1 + (top.power if top.power >= 0 else self.kinds),
                top.step,
                top.count,
                0 if chosen is None else chosen + 1,
                0 if player is None else 1 + (player - seat) % players,
                len(top.looked),
            )
            if seat == turn_player:
                for kind in top.looked:
                    values[start + 7 + kind] += 1
        return np.frombuffer(self.pack(*values), np.float32).copy()
