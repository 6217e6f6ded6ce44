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
            named = cells.cells_array(legal.spaces)
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


class KeptVector:
    """One seat's observation vector, kept between its observations, and how many of
    its leading bytes hold board rows (the rows after them are zeros)."""

    def __init__(self, size: int) -> None:
        self.vector = np.zeros(size, np.float32)
        self.bytes = memoryview(self.vector.data).cast("B")
        self.board_bytes = 0


class MegalopolisVectors:
    """`encode_state` of a `MegalopolisEncoding` (what `observation()` shows: face-down
    kinds hidden, a Library's tiles to the turn's player only), kept move by move.

    Every change of a tile on the table goes through the engine's `table` module, which
    tells the state's caches the cell (`Caches.tile_changed`); the vectors ask for those
    cells (`Caches.changed_cells`) and rewrite only their board rows, one packed row per
    seat's point of view, and the face-up counts the `unseen` segment needs. A state
    seen for the first time (a new match, a copy, a state whose caches were replaced) is
    read whole. The board segment is then the rows of the occupied cells joined in the
    observation's order (by cell code), and the segments after it one packed list."""

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
        order = ("hand", "unseen", "seats", "scalars", "frame")
        if [self.at[name] for name in order] != sorted(self.at[name] for name in order):
            raise AssertionError("the Megalopolis segments are not in the order written")
        self.pack = struct.Struct(f"<{self.size - self.rest}f").pack
        self.no_frame = (0,) * (encoding.offsets["frame"][1] - encoding.offsets["frame"][0])
        self.row = struct.Struct(f"<{5 + self.players}f").pack
        self.end_reasons = {reason: n for n, reason in enumerate(encoding.end_reasons)}
        self.kinds = len(KIND_NAMES)
        every = Counter(ALL_TILES)
        self.all_counts = [every[kind] for kind in range(self.kinds)]
        """Tiles per kind in the game."""
        self._state: MegalopolisState | None = None
        self._changed: set[int] | None = None
        self.rows: list[dict[int, bytes]] = [{} for _ in range(self.players)]
        """Per seat: each occupied cell's board row as that seat sees it, packed."""
        self.shown: dict[int, int] = {}
        """The kind of each face-up tile on the table, by cell."""
        self.face_up = [0] * self.kinds
        """Face-up tiles on the table per kind."""

    def sync(self, state: MegalopolisState) -> None:
        """Bring the rows and counts up to `state`: the cells changed since it was last
        read, or every cell of a state not seen before."""
        caches = state.caches
        changed = caches.changed_cells
        if state is self._state and changed is not None and changed is self._changed:
            if changed:
                for code in changed:
                    self.write(state, code)
                changed.clear()
            return
        self._state = state
        self._changed = caches.changed_cells = set()
        self.rows = [{} for _ in range(self.players)]
        self.shown = {}
        self.face_up = [0] * self.kinds
        for code in state.board:
            self.write(state, code)

    def write(self, state: MegalopolisState, code: int) -> None:
        """The rows and counts of the cell `code` as the table holds it now."""
        kind = self.shown.pop(code, None)
        if kind is not None:
            self.face_up[kind] -= 1
        tile = state.board.get(code)
        if tile is None:
            for rows in self.rows:
                rows.pop(code, None)
            return
        face_up = tile.face_up
        if face_up:
            self.shown[code] = tile.kind
            self.face_up[tile.kind] += 1
        x, y = decode(code)
        head = (1.0, x, y, face_up, 1 + tile.kind if face_up else 0)
        tokens, row = tile.tokens, self.row
        for seat, rows in enumerate(self.rows):
            rows[code] = row(*head, *tokens[seat:], *tokens[:seat])

    def vector_buffer(self) -> KeptVector:
        return KeptVector(self.size)

    def encode(self, state: MegalopolisState, seat: int) -> np.ndarray:
        return self.encode_into(state, seat, self.vector_buffer()).copy()

    def encode_into(self, state: MegalopolisState, seat: int, kept: KeptVector) -> np.ndarray:
        """`seat`'s vector, written into `kept`'s."""
        self.sync(state)
        players, kinds = self.players, self.kinds
        board = state.board
        cells = self.reader.cells(state)
        rows = b"".join(map(self.rows[seat].__getitem__, cells.codes))
        # What the seat cannot see, per kind: every tile less those it sees.
        unseen = [total - up for total, up in zip(self.all_counts, self.face_up, strict=True)]
        hand = [0] * kinds
        for kind in state.hands[seat]:
            hand[kind] += 1
            unseen[kind] -= 1
        turn_player = state.turn_player
        stack = state.stack
        if seat == turn_player:
            for frame in stack:
                for kind in frame.looked:
                    unseen[kind] -= 1
                if temple_hand_shown(state, frame, seat):
                    for kind in state.hands[known(frame.player, "player")]:
                        unseen[kind] -= 1
        hands, supply = state.hands, state.supply
        seats: list[int] = []
        for rank in range(players):
            who = (seat + rank) % players
            seats += (len(hands[who]), supply[who])
        last, final = state.last_token_by, state.final_round
        ahead = (turn_player - seat) % players
        frame_values: Any = self.no_frame
        if stack:
            top = stack[-1]
            chosen = None
            if top.chosen is not None:
                serials = {board[code].serial: i for i, code in enumerate(cells.codes)}
                chosen = serials.get(top.chosen)
            player = top.player
            looked = [0] * kinds
            if seat == turn_player:
                for kind in top.looked:
                    looked[kind] += 1
            frame_values = (
                len(stack),
                1 + (top.power if top.power >= 0 else kinds),
                top.step,
                top.count,
                0 if chosen is None else chosen + 1,
                0 if player is None else 1 + (player - seat) % players,
                len(top.looked),
                *looked,
            )
        rest = self.pack(
            *hand,
            *unseen,
            *seats,
            state.turn,
            state.turns_played,
            ahead,
            ahead,
            (state.first_player - seat) % players,
            len(state.deck),
            state.resolving,
            state.factory_draws,
            0 if last is None else 1 + (last - seat) % players,
            state.passes,
            state.over,
            self.end_reasons[state.end_reason],
            0 if final is None else len(final),
            *frame_values,
        )
        written, kept_bytes = len(rows), kept.bytes
        kept_bytes[:written] = rows
        if kept.board_bytes > written:
            kept_bytes[written : kept.board_bytes] = bytes(kept.board_bytes - written)
        kept.board_bytes = written
        kept_bytes[4 * self.rest :] = rest
        return kept.vector
