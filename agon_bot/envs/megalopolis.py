"""Megalopolis: the table as a list of tiles, every cell named by the tile next to it.

A tile is played, laid by a Port or moved by a Post Office onto an empty cell that
shares an edge with a tile on the table, so each legal cell is next to an entry of the
board list (`agon_bot.envs.pointers`); the table never holds more than the game's 120
tiles. Tiles, tokens and players are named by board entry and relative seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from agon_bot.envs.cell_boards import DIRECTIONS, CellBoardEncoding
from agon_bot.envs.encoding import Segment, seat_order
from agon_bot.envs.fast.megalopolis import MegalopolisStateReader, MegalopolisVectors
from engine.megalopolis.actions import LegalActions

KINDS = (
    "arboretum", "bank", "capitol", "construction_site", "disaster_site", "embassy",
    "factory", "hotel", "housing", "library", "mausoleum", "plaza", "police_hq", "port",
    "post_office", "power_station", "security_guard", "shopping_complex", "stadium",
    "temple", "transit_station",
)  # fmt: skip
KIND = {name: n for n, name in enumerate(KINDS)}
POWERS = (*KINDS, "draw")
TILES = 120
CELLS = TILES * len(DIRECTIONS)
END_REASONS = (None, "last_token", "power_stations", "no_player_can_act", "turn_limit")


class MegalopolisEncoding(CellBoardEncoding):
    game_id = "megalopolis"
    legal_type = LegalActions
    capacity = TILES
    vectors: MegalopolisVectors

    def __init__(self, players: int, options: Mapping[str, Any], first: Mapping[str, Any]) -> None:
        super().__init__(players, options)
        p = players
        self.segments = (
            Segment(
                "board",
                (TILES, 5 + p),
                200,
                "per board entry, in the observation's order (by x, then y): present, x, "
                "y, face up, kind (1 + index in KINDS; 0 face down), then the tokens of "
                "each seat (0 = you)",
                low=-200,
            ),
            Segment("hand", (len(KINDS),), TILES, "your tiles of each kind"),
            Segment("unseen", (len(KINDS),), TILES, "tiles of each kind you cannot see"),
            Segment("seats", (p, 2), TILES, "per seat (0 = you): hand size, tokens in supply"),
            Segment(
                "scalars",
                (13,),
                1000,
                "turn, turns played, seat to move, turn player, first player (relative "
                "seats), deck size, resolving, factory draws, last token by (0 none, 1 + "
                "relative seat), passes, over, end reason (index in END_REASONS), seats "
                "still to play their last turn",
            ),
            Segment(
                "frame",
                (7 + len(KINDS),),
                200,
                "the text being resolved now: stack depth, power (1 + index in POWERS; 0 "
                "none), step, count, chosen tile (board entry + 1), player (1 + relative "
                "seat), tiles looked at (count), then the looked-at tiles per kind",
                low=-1,
            ),
        )
        self._layout()
        self.play_base = 0
        self.hotel_base = len(KINDS) * CELLS
        self.pass_index = self.hotel_base + TILES
        self.tile_base = self.pass_index + 1
        self.token_base = self.tile_base + TILES
        self.space_base = self.token_base + TILES * (p + 1)
        self.player_base = self.space_base + CELLS
        self.done_index = self.player_base + p
        self.n_actions = self.done_index + 1
        self.action_doc = (
            f"play: kind * CELLS + cell; hotel: {self.hotel_base} + entry; pass: "
            f"{self.pass_index}; tile: {self.tile_base} + entry; tile and owner: "
            f"{self.token_base} + entry * {p + 1} + owner (relative seat, {p}: all); "
            f"space: {self.space_base} + cell; player: {self.player_base} + relative seat; "
            f"done: {self.done_index}; cell = entry * 4 + direction, CELLS = {CELLS}"
        )
        self.end_reasons = END_REASONS
        self.reader = MegalopolisStateReader(self, TILES)
        self.vectors = MegalopolisVectors(self, self.reader)

    def vector_buffer(self) -> Any:
        return self.vectors.vector_buffer()

    def encode_state_into(self, state: Any, seat: int, kept: Any) -> np.ndarray:
        return self.vectors.encode_into(state, seat, kept)

    def fill(self, observation: Mapping[str, Any], vector: np.ndarray) -> None:
        me = int(observation["player"])
        order = seat_order(self.players, me)
        relative = self.relative
        rows = []
        for entry in observation["board"]:
            tokens = entry["tokens"]
            kind = entry.get("kind")
            rows.append(
                (
                    1,
                    entry["x"],
                    entry["y"],
                    entry["face_up"],
                    0 if kind is None else 1 + KIND[kind],
                    *[tokens[seat] for seat in order],
                )
            )
        if rows:
            self.view(vector, "board")[: len(rows)] = rows
        hand = self.view(vector, "hand")
        for name in observation["hand"]:
            hand[KIND[name]] += 1
        unseen = self.view(vector, "unseen")
        for name, count in observation["unseen"].items():
            unseen[KIND[name]] = count
        seats = self.view(vector, "seats")
        for rank, seat in enumerate(order):
            seats[rank] = observation["hand_sizes"][seat], observation["tokens_in_supply"][seat]
        last = observation["last_token_by"]
        final = observation["final_round"]
        self.view(vector, "scalars")[:] = (
            observation["turn"],
            observation["turns_played"],
            relative(observation, observation["current_player"]),
            relative(observation, observation["turn_player"]),
            relative(observation, observation["first_player"]),
            observation["deck_size"],
            observation["resolving"],
            observation["factory_draws"],
            0 if last is None else 1 + relative(observation, last),
            observation["passes"],
            observation["over"],
            END_REASONS.index(observation["end_reason"]),
            0 if final is None else len(final),
        )
        stack = observation["stack"]
        if stack:
            top = stack[-1]
            frame = self.view(vector, "frame")
            serials = {entry["serial"]: i for i, entry in enumerate(observation["board"])}
            chosen = serials.get(top.get("chosen"))
            player = top.get("player")
            looked = top.get("looked") or []
            frame[:7] = (
                len(stack),
                1 + POWERS.index(top["power"]),
                top.get("step", 0),
                top.get("count", 0),
                0 if chosen is None else chosen + 1,
                0 if player is None else 1 + relative(observation, player),
                top.get("looked_count", len(looked)),
            )
            for name in looked:
                frame[7 + KIND[name]] += 1

    def encode_action(self, action: Any, observation: Mapping[str, Any]) -> int:
        if "play" in action:
            cell = self.cells(observation).cell(action["x"], action["y"])
            return KIND[action["play"]] * CELLS + cell
        if "hotel" in action:
            return self.hotel_base + self.cells(observation).entry(*action["hotel"])
        if action.get("pass") is True:
            return self.pass_index
        if "tile" in action:
            entry = self.cells(observation).entry(*action["tile"])
            if "owner" not in action:
                return self.tile_base + entry
            owner = action["owner"]
            who = self.players if owner == "all" else self.relative(observation, owner)
            return self.token_base + entry * (self.players + 1) + who
        if "space" in action:
            return self.space_base + self.cells(observation).cell(*action["space"])
        if "player" in action:
            return self.player_base + self.relative(observation, action["player"])
        if action.get("done") is True:
            return self.done_index
        raise ValueError(f"not a Megalopolis action: {action}")

    def decode_action(self, index: int, observation: Mapping[str, Any]) -> Any:
        index = int(index)
        cells = self.cells(observation)
        board = observation["board"]
        me = int(observation["player"])
        if index < self.hotel_base:
            kind, cell = divmod(index, CELLS)
            x, y = cells.position(cell)
            return {"play": KINDS[kind], "x": x, "y": y}
        if index < self.pass_index:
            entry = board[index - self.hotel_base]
            return {"hotel": [entry["x"], entry["y"]]}
        if index == self.pass_index:
            return {"pass": True}
        if index < self.token_base:
            entry = board[index - self.tile_base]
            return {"tile": [entry["x"], entry["y"]]}
        if index < self.space_base:
            at, who = divmod(index - self.token_base, self.players + 1)
            entry = board[at]
            owner = "all" if who == self.players else (me + who) % self.players
            return {"tile": [entry["x"], entry["y"]], "owner": owner}
        if index < self.player_base:
            return {"space": list(cells.position(index - self.space_base))}
        if index < self.done_index:
            return {"player": (me + index - self.player_base) % self.players}
        return {"done": True}

    def compact_indices(self, compact: Any, observation: Mapping[str, Any]) -> np.ndarray | None:
        play = compact["play"]
        cells = self.cells(observation)
        spaces = np.array([cells.cell(x, y) for x, y in play["spaces"]], dtype=np.int64)
        kinds = np.array([KIND[name] for name in play["kinds"]], dtype=np.int64)
        plays = np.add.outer(kinds * CELLS, spaces).ravel()
        others = [self.encode_action(action, observation) for action in compact["others"]]
        return np.concatenate([plays, np.array(others, dtype=np.int64)])
