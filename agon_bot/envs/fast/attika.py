"""Attika's encodings from the engine's state: the map's part of the vector (hexes and
tiles) kept while the map and the buildings on it are the same, the rest written from
the state's few numbers; the legal actions' indices from the engine's build options
(cells as codes) and tile placements, without their JSON.

The map changes only by a tile laid (`state.tiles` grows) and the buildings on it only
by a building built (the index's `owner_at` grows; none is ever removed), so the kept
part is keyed by the tiles and by the `owner_at` dict and its size.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from engine.attika.actions import LegalActions, TilePlacements
from engine.attika.state import AttikaState
from engine.hexgrid import NEIGHBOUR_STEPS, decode, encode

PENDING_KINDS = {"drawn": 1, "pay": 2, "tile": 3}
"""`attika.PENDING`'s index of each kind."""
WIN_REASON = {None: 0, "all_buildings": 1, "shrines": 2}


class MapNames:
    """`attika.MapHexes` of a state's tiles, by cell code: code -> slot * 7 + k."""

    def __init__(self, tiles: Sequence[tuple[int, int, int, int]], map_hexes: Any) -> None:
        self.tiles = tuple(tiles)
        self.names: dict[int, int] = {}
        self.centres = [(q, r) for _, q, r, _ in tiles]
        for slot, (_, q, r, _) in enumerate(tiles):
            centre = encode(q, r)
            for k, step in enumerate((0, *NEIGHBOUR_STEPS)):
                self.names.setdefault(centre + step, slot * 7 + k)
        # `extend` as the JSON encoding names it.
        self._hexes = map_hexes([{"q": q, "r": r} for _, q, r, _ in tiles])
        self._extends: dict[int, tuple[int, int]] = {}

    def extend(self, centre: int) -> tuple[int, int]:
        found = self._extends.get(centre)
        if found is None:
            found = self._extends[centre] = self._hexes.extend(*decode(centre))
        return found


class AttikaStateReader:
    """`encode_state` and `state_legal_indices` of an `AttikaEncoding`."""

    def __init__(self, encoding: Any) -> None:
        # The JSON encoding's module (imported here: it imports this one).
        from agon_bot.envs import attika

        self.encoding = encoding
        self.map_hexes = attika.MapHexes
        self.offsets_count = len(attika.OFFSETS)
        self.hexes_count = attika.HEXES
        self.building_index = attika.BUILDING
        self.players = encoding.players
        self.size = encoding.observation_size
        self.slices = {
            name: slice(start, end) for name, (start, end) in encoding.offsets.items()
        }
        self.segment_shapes = {s.name: s.shape for s in encoding.segments}
        self._names: MapNames | None = None
        self._map_key: tuple[Any, ...] = ()
        self._map: np.ndarray = np.zeros(0, np.float32)
        self._owners = np.zeros(0, np.int64)
        self._owner_rows = np.zeros(0, np.int64)

    def names(self, state: AttikaState) -> MapNames:
        kept = self._names
        if kept is None or kept.tiles != tuple(state.tiles):
            kept = self._names = MapNames(state.tiles, self.map_hexes)
        return kept

    def map_part(self, state: AttikaState) -> np.ndarray:
        """The hexes and tiles segments with absolute seats (1 + seat) as owners."""
        index = state.caches.index
        owner_at = index.owner_at
        key = (tuple(state.tiles), owner_at, len(owner_at))
        kept = self._map_key
        if kept and kept[1] is key[1] and kept[2] == key[2] and kept[0] == key[0]:
            return self._map
        names = self.names(state).names
        hexes = np.zeros(self.segment_shapes["hexes"], np.float32)
        building_at = index.building_at
        for cell, symbol in index.symbol_at.items():
            q, r = decode(cell)
            owner = owner_at.get(cell)
            hexes[names[cell]] = (
                1,
                q,
                r,
                0 if symbol < 0 else 1 + symbol,
                0 if owner is None else 1 + owner,
                0 if owner is None else 1 + building_at[cell],
            )
        tiles = np.zeros(self.segment_shapes["tiles"], np.float32)
        for row, (tile, q, r, rotation) in zip(tiles, state.tiles, strict=False):
            row[:] = (1, tile + 1, q, r, rotation)
        self._map = np.concatenate([hexes.ravel(), tiles.ravel()])
        self._owner_rows = np.flatnonzero(hexes[:, 4]) * 6 + 4
        self._owners = hexes[:, 4].ravel()[hexes[:, 4] > 0].astype(np.int64) - 1
        self._map_key = key
        return self._map

    def encode(self, state: AttikaState, seat: int) -> np.ndarray:
        players = self.players
        where = self.slices
        vector = np.zeros(self.size, np.float32)
        map_part = self.map_part(state)
        start = where["hexes"].start
        vector[start : start + len(map_part)] = map_part
        if len(self._owners):
            vector[start + self._owner_rows] = 1 + (self._owners - seat) % players
        shrines = vector[where["shrines"]]
        for n, cell in enumerate(state.shrines):
            q, r = decode(cell)
            shrines[3 * n : 3 * n + 3] = (1, q, r)
        vector[where["unplaced_tiles"]][state.tile_pile] = 1
        mine = state.seats[seat]
        cards = vector[where["cards"]]
        cards[0:4] = mine.hand
        cards[4:8] = state.discard
        cards[8:10] = len(state.deck), state.amphora_supply
        vector[where["board"]][mine.board] = 1
        seats = vector[where["seats"]].reshape(self.segment_shapes["seats"])
        colonies = state.caches.index.colonies
        for rank in range(players):
            who = (seat + rank) % players
            other = state.seats[who]
            row = seats[rank]
            row[:5] = (
                sum(other.hand),
                len(other.board),
                other.amphorae,
                len(other.placed),
                colonies[who],
            )
            row[[6 + b for b in other.board]] = 1
            row[36:40] = [len(stack) for stack in other.stacks]
            row[[40 + g for g in other.amphora_groups]] = 1
        winner = state.winner
        vector[where["scalars"]] = (
            state.turn,
            (state.current - seat) % players,
            state.over,
            0 if winner is None else 1 + (winner - seat) % players,
            WIN_REASON[state.win_reason],
            state.mode,
            state.actions_left,
            state.took_cards,
            state.acted,
            state.passes,
        )
        pending = state.pending
        if pending is not None:
            kind = pending.kind
            shown = kind == "pay" or (kind == "drawn" and state.current == seat)
            vector[where["pending"]] = (
                PENDING_KINDS[kind],
                1 + pending.building if shown else 0,
                1 + self.names(state).names[pending.cell] if kind == "pay" else 0,
                pending.extend if kind in ("drawn", "pay") else False,
                pending.from_draw if kind == "pay" else False,
                1 + pending.stack if kind == "drawn" else 0,
                1 + pending.tile if kind == "tile" else 0,
            )
        return vector

    def legal_indices(self, state: AttikaState, legal: LegalActions) -> np.ndarray:
        encoding = self.encoding
        names = self.names(state)
        others = legal.others
        if type(others) is TilePlacements:
            rotations = np.asarray(others.rotations, np.int64)
            slots = np.array(
                [
                    encoding.extend_base + 6 * (slot * self.offsets_count + offset)
                    for slot, offset in map(names.extend, others.centres)
                ],
                dtype=np.int64,
            )
            first = np.add.outer(slots, rotations).ravel()
        else:
            first = np.array(
                [self.other_index(action, names) for action in others], dtype=np.int64
            )
        if not legal.builds:
            return first
        cell_names = names.names
        base, hexes = encoding.build_base, self.hexes_count
        parts = [first]
        # Runs of buildings offered the same cells (the same list) share one lookup.
        for _, grouped in itertools.groupby(legal.builds, key=lambda option: id(option[1])):
            run = list(grouped)
            named = np.fromiter(map(cell_names.__getitem__, run[0][1]), np.int64)
            starts = base + hexes * np.array([building for building, _ in run], dtype=np.int64)
            parts.append(np.add.outer(starts, named).ravel())
        return np.concatenate(parts)

    def other_index(self, action: dict[str, Any], names: MapNames) -> int:
        """A non-build action's index (these need no hex name, or the map's)."""
        kind = action["type"]
        encoding = self.encoding
        if kind == "extend":
            slot, offset = names.extend(encode(action["q"], action["r"]))
            return int(
                encoding.extend_base
                + (slot * self.offsets_count + offset) * 6
                + int(action["rotation"])
            )
        if kind == "build":
            at = names.names[encode(action["q"], action["r"])]
            return int(
                encoding.build_base
                + self.building_index[action["building"]] * self.hexes_count
                + at
            )
        index: int = encoding.encode_action(action, {})
        return index
