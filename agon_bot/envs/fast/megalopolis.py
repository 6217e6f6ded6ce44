"""Megalopolis's encodings from the engine's state, without the JSON: the legal
actions' indices from the engine's legal choices and its board (entries by sorted cell
code, seats relative to the seat to move), and the vector written as one list."""

from __future__ import annotations

import functools
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
        self.rest = encoding.offsets["board"][1]
        """Where the segments after the board start (the board comes first)."""
        if encoding.offsets["board"][0] != 0:
            raise AssertionError("the Megalopolis board is not the first segment")
        self.at = {name: start - self.rest for name, start in self.at.items()}
        self.pack = struct.Struct(f"<{self.size - self.rest}f").pack
        self.packers: dict[int, struct.Struct] = {}
        self.places = functools.cache(lambda code: (1.0, *decode(code)))
        self.end_reasons = {reason: n for n, reason in enumerate(encoding.end_reasons)}
        self.kinds = len(KIND_NAMES)
        every = Counter(ALL_TILES)
        self.all_counts = [every[kind] for kind in range(self.kinds)]
        """Tiles per kind in the game."""

    def board_rows(self, state: MegalopolisState, codes: list[int], seat: int) -> np.ndarray:
        """The board segment's rows in use, tokens rotated to the observer's side."""
        board, players, places = state.board, self.players, self.places
        flat: list[Any] = []
        extend = flat.extend
        if seat:
            order = [(rank + seat) % players for rank in range(players)]
            for code in codes:
                tile = board[code]
                face_up, tokens = tile.face_up, tile.tokens
                extend(places(code))
                extend((face_up, 1 + tile.kind if face_up else 0))
                extend([tokens[who] for who in order])
        else:
            for code in codes:
                tile = board[code]
                face_up = tile.face_up
                extend(places(code))
                extend((face_up, 1 + tile.kind if face_up else 0))
                extend(tile.tokens)
        packer = self.packers.get(len(codes))
        if packer is None:
            packer = self.packers[len(codes)] = struct.Struct(f"<{len(codes) * (5 + players)}f")
        return np.frombuffer(packer.pack(*flat), np.float32).reshape(len(codes), 5 + players)

    def encode(self, state: MegalopolisState, seat: int) -> np.ndarray:
        players, at = self.players, self.at
        # The board's rows in use as one block, the rest as one list after it: the
        # table's unused rows stay zeros.
        values = [0.0] * (self.size - self.rest)
        board = state.board
        cells = self.reader.cells(state)
        rows = self.board_rows(state, cells.codes, seat)
        # What the seat cannot see, per kind: every tile less those it sees.
        unseen = self.all_counts.copy()
        for code in cells.codes:
            tile = board[code]
            if tile.face_up:
                unseen[tile.kind] -= 1
        hand = state.hands[seat]
        start = at["hand"]
        for kind in hand:
            values[start + kind] += 1
            unseen[kind] -= 1
        turn_player = state.turn_player
        if seat == turn_player:
            for frame in state.stack:
                for kind in frame.looked:
                    unseen[kind] -= 1
                if temple_hand_shown(state, frame, seat):
                    for kind in state.hands[known(frame.player, "player")]:
                        unseen[kind] -= 1
        start = at["unseen"]
        values[start : start + self.kinds] = unseen
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
        vector = np.zeros(self.size, np.float32)
        vector[: rows.size] = rows.ravel()
        vector[self.rest :] = np.frombuffer(self.pack(*values), np.float32)
        return vector
