"""Attika: the map as its tiles' hexes, builds named by map hex, payments by card counts.

The map is made only of map tiles (22 of seven hexes), so a hex is named by (slot, k):
the tile at position `slot` of the observation's `map.tiles` and its hex `k` (0 the
centre, 1 + d the neighbour of the centre in direction d): 154 names hold every hex a
building can go on. A new map tile touches the map or a shrine, and shrines lie next to
the map, so its centre lies within 4 of the centre of some tile already laid: an extend
is named by the first such tile, the offset of the new centre from it (the 61 cells
within 4) and the rotation. A payment is its four card counts, each at most the 15
cards of a landscape there are.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from agon_bot.envs.encoding import Encoding, Segment, seat_order
from agon_bot.envs.fast.attika import AttikaStateReader
from engine.attika.actions import LegalActions

LANDSCAPES = ("mountain", "hill", "forest", "water")
BUILDINGS = (
    "agora", "temple", "theatre", "stoa", "oracle", "statue", "odeon", "gymnasium",
    "library", "bath", "quarry", "fortress", "tower_1", "tower_2", "harbour", "ship_1",
    "ship_2", "ship_3", "granary", "field_1", "field_2", "field_3", "road_1", "road_2",
    "road_3", "road_4", "mint", "treasury", "vineyard", "vintner",
)  # fmt: skip
BUILDING = {name: n for n, name in enumerate(BUILDINGS)}
GROUPS = ("city", "defence", "shipping", "supply", "roads", "mint", "vineyard")
MAP_TILES = 22
HEXES = MAP_TILES * 7
SHRINES = 4
CARDS = 15
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
REACH = 4
OFFSETS = tuple(
    (dq, dr)
    for dq in range(-REACH, REACH + 1)
    for dr in range(-REACH, REACH + 1)
    if max(abs(dq), abs(dr), abs(dq + dr)) <= REACH
)
OFFSET = {offset: n for n, offset in enumerate(OFFSETS)}
STEPS = ("none", "draw", "build")
PENDING = (None, "drawn", "pay", "tile")
WIN_REASONS = (None, "all_buildings", "shrines")
SIMPLE = ("keep", "end_turn", "amphora:action", "amphora:card")


def distance(dq: int, dr: int) -> int:
    return max(abs(dq), abs(dr), abs(dq + dr))


class MapHexes:
    """The hex names of one map: (q, r) -> slot * 7 + k, and back."""

    def __init__(self, tiles: list[Mapping[str, Any]]) -> None:
        if len(tiles) > MAP_TILES:
            raise ValueError(f"{len(tiles)} map tiles, more than {MAP_TILES}")
        self.centres = [(int(t["q"]), int(t["r"])) for t in tiles]
        self.names: dict[tuple[int, int], int] = {}
        self.positions: list[tuple[int, int]] = []
        for slot, (q, r) in enumerate(self.centres):
            for k, (dq, dr) in enumerate(((0, 0), *DIRECTIONS)):
                self.names.setdefault((q + dq, r + dr), slot * 7 + k)
                self.positions.append((q + dq, r + dr))

    def name(self, q: int, r: int) -> int:
        found = self.names.get((q, r))
        if found is None:
            raise ValueError(f"({q}, {r}) is on no map tile")
        return found

    def extend(self, q: int, r: int) -> tuple[int, int]:
        """The first tile whose centre lies within REACH of (q, r), and the offset."""
        for slot, (cq, cr) in enumerate(self.centres):
            if distance(q - cq, r - cr) <= REACH:
                return slot, OFFSET[q - cq, r - cr]
        raise ValueError(
            f"a map tile centred on ({q}, {r}) is further than {REACH} from every tile"
        )


class AttikaEncoding(Encoding):
    game_id = "attika"

    def __init__(self, players: int, options: Mapping[str, Any], first: Mapping[str, Any]) -> None:
        super().__init__(players, options)
        p, nb = players, len(BUILDINGS)
        self.segments = (
            Segment(
                "hexes",
                (HEXES, 6),
                200,
                "per map hex (slot * 7 + k): present, q, r, landscape (1 + index in "
                "LANDSCAPES; 0 blank), building's seat (1 + relative seat; 0 none), "
                "building (1 + index in BUILDINGS)",
                low=-200,
            ),
            Segment(
                "tiles",
                (MAP_TILES, 5),
                200,
                "per map slot: present, tile id + 1, q, r, rotation",
                low=-200,
            ),
            Segment("shrines", (SHRINES, 3), 200, "per shrine: present, q, r", low=-200),
            Segment(
                "unplaced_tiles", (MAP_TILES,), 1, "1 where map tile id i is still in the pile"
            ),
            Segment(
                "cards",
                (3, len(LANDSCAPES)),
                4 * CARDS,
                "your hand, the discard, (deck size, amphora supply, 0, 0)",
            ),
            Segment("board", (nb,), 1, "1 where building i is on your board"),
            Segment(
                "seats",
                (p, 6 + nb + 4 + len(GROUPS)),
                100,
                "per seat (0 = you): hand size, board size, amphorae, buildings on map, "
                "colonies, 0, the board's buildings (30), stack sizes (4), groups that "
                "earned an amphora (7)",
            ),
            Segment(
                "scalars",
                (10,),
                1000,
                "turn, seat to move (relative), over, winner (1 + relative seat; 0 none), "
                "win reason (index in WIN_REASONS), the turn's action (index in STEPS), "
                "actions left, took cards, acted, passes",
            ),
            Segment(
                "pending",
                (7,),
                200,
                "the decision owed: kind (index in PENDING), building + 1, cell (hex name "
                "+ 1), extend, from draw, stack + 1, tile + 1",
            ),
        )
        self._layout()
        self._hexes: tuple[Any, MapHexes] | None = None
        self.draw_base = 0
        self.build_base = 4
        self.pay_base = self.build_base + nb * HEXES
        self.extend_base = self.pay_base + (CARDS + 1) ** 4
        self.simple_base = self.extend_base + MAP_TILES * len(OFFSETS) * 6
        self.n_actions = self.simple_base + len(SIMPLE)
        self.action_doc = (
            f"draw: stack; build: 4 + building * {HEXES} + hex name; pay: {self.pay_base} + "
            f"((mountain * 16 + hill) * 16 + forest) * 16 + water; extend: "
            f"{self.extend_base} + (slot * {len(OFFSETS)} + offset) * 6 + rotation; keep, "
            f"end_turn, amphora action, amphora card: {self.simple_base} + 0..3"
        )
        self.reader = AttikaStateReader(self)

    def encode_state(self, state: Any, seat: int) -> np.ndarray:
        return self.reader.encode(state, seat)

    def vector_buffer(self) -> Any:
        return self.reader.vector_buffer()

    def encode_state_into(self, state: Any, seat: int, kept: Any) -> np.ndarray:
        return self.reader.encode_into(state, seat, kept)

    def state_legal_indices(self, state: Any, legal: Sequence[Any]) -> np.ndarray:
        if isinstance(legal, LegalActions):
            return self.reader.legal_indices(state, legal)
        return super().state_legal_indices(state, legal)

    def hexes(self, observation: Mapping[str, Any]) -> MapHexes:
        kept = self._hexes
        if kept is not None and kept[0] is observation:
            return kept[1]
        hexes = MapHexes(observation["map"]["tiles"])
        self._hexes = (observation, hexes)
        return hexes

    def fill(self, observation: Mapping[str, Any], vector: np.ndarray) -> None:
        me = int(observation["player"])
        order = seat_order(self.players, me)
        relative = self.relative
        hexes = self.hexes(observation)
        names, rows = [], []
        for entry in observation["map"]["hexes"]:
            q, r = entry["q"], entry["r"]
            landscape, seat, building = entry["landscape"], entry["player"], entry["building"]
            names.append(hexes.name(q, r))
            rows.append(
                (
                    1,
                    q,
                    r,
                    0 if landscape is None else 1 + LANDSCAPES.index(landscape),
                    0 if seat is None else 1 + relative(observation, seat),
                    0 if building is None else 1 + BUILDING[building],
                )
            )
        if rows:
            self.view(vector, "hexes")[names] = rows
        tiles = self.view(vector, "tiles")
        for row, tile in zip(tiles, observation["map"]["tiles"], strict=False):
            row[:] = (1, tile["tile"] + 1, tile["q"], tile["r"], tile["rotation"])
        shrines = self.view(vector, "shrines")
        for row, (q, r) in zip(shrines, observation["map"]["shrines"], strict=False):
            row[:] = (1, q, r)
        self.view(vector, "unplaced_tiles")[observation["unplaced_tiles"]] = 1
        cards = self.view(vector, "cards")
        cards[0] = [observation["hand"][name] for name in LANDSCAPES]
        cards[1] = [observation["discard"][name] for name in LANDSCAPES]
        cards[2, :2] = observation["deck_size"], observation["amphora_supply"]
        board = self.view(vector, "board")
        board[[BUILDING[name] for name in observation["board"]]] = 1
        seats = self.view(vector, "seats")
        nb = len(BUILDINGS)
        for rank, seat in enumerate(order):
            info = observation["seats"][seat]
            row = seats[rank]
            row[:5] = (
                info["hand_size"],
                info["board_size"],
                info["amphorae"],
                info["buildings_on_map"],
                info["colonies"],
            )
            row[[6 + BUILDING[name] for name in info["board"]]] = 1
            row[6 + nb : 10 + nb] = info["stack_sizes"]
            row[[10 + nb + GROUPS.index(group) for group in info["amphora_groups"]]] = 1
        winner = observation["winner"]
        self.view(vector, "scalars")[:] = (
            observation["turn"],
            relative(observation, observation["current_player"]),
            observation["over"],
            0 if winner is None else 1 + relative(observation, winner),
            WIN_REASONS.index(observation["win_reason"]),
            STEPS.index(observation["action"]),
            observation["actions_left"],
            observation["took_cards"],
            observation["acted"],
            observation["passes"],
        )
        pending = observation["pending"]
        if pending:
            building = pending.get("building")
            cell = pending.get("cell")
            stack = pending.get("stack")
            tile = pending.get("tile")
            self.view(vector, "pending")[:] = (
                PENDING.index(pending["kind"]),
                0 if building is None else 1 + BUILDING[building],
                0 if cell is None else 1 + hexes.name(*cell),
                bool(pending.get("extend")),
                bool(pending.get("from_draw")),
                0 if stack is None else 1 + stack,
                0 if tile is None else 1 + tile,
            )

    def encode_action(self, action: Any, observation: Mapping[str, Any]) -> int:
        kind = action["type"]
        if kind == "draw":
            return self.draw_base + int(action["stack"])
        if kind == "build":
            where = self.hexes(observation).name(action["q"], action["r"])
            return self.build_base + BUILDING[action["building"]] * HEXES + where
        if kind == "pay":
            cards = action["cards"]
            counts = [int(cards[name]) for name in LANDSCAPES]
            if set(cards) != set(LANDSCAPES) or not all(0 <= n <= CARDS for n in counts):
                raise ValueError(f"not representable: {action}")
            m, h, f, w = counts
            return self.pay_base + ((m * 16 + h) * 16 + f) * 16 + w
        if kind == "extend":
            slot, offset = self.hexes(observation).extend(action["q"], action["r"])
            return self.extend_base + (slot * len(OFFSETS) + offset) * 6 + int(action["rotation"])
        name = f"amphora:{action['use']}" if kind == "amphora" else kind
        return self.simple_base + SIMPLE.index(name)

    def decode_action(self, index: int, observation: Mapping[str, Any]) -> Any:
        index = int(index)
        if index < self.build_base:
            return {"type": "draw", "stack": index}
        if index < self.pay_base:
            building, where = divmod(index - self.build_base, HEXES)
            q, r = self.hexes(observation).positions[where]
            return {"type": "build", "building": BUILDINGS[building], "q": q, "r": r}
        if index < self.extend_base:
            rest, w = divmod(index - self.pay_base, 16)
            rest, f = divmod(rest, 16)
            m, h = divmod(rest, 16)
            return {"type": "pay", "cards": dict(zip(LANDSCAPES, (m, h, f, w), strict=True))}
        if index < self.simple_base:
            rest, rotation = divmod(index - self.extend_base, 6)
            slot, offset = divmod(rest, len(OFFSETS))
            cq, cr = self.hexes(observation).centres[slot]
            dq, dr = OFFSETS[offset]
            return {"type": "extend", "q": cq + dq, "r": cr + dr, "rotation": rotation}
        name = SIMPLE[index - self.simple_base]
        if name.startswith("amphora:"):
            return {"type": "amphora", "use": name.partition(":")[2]}
        return {"type": name}

    def compact_indices(self, compact: Any, observation: Mapping[str, Any]) -> np.ndarray | None:
        others = [self.encode_action(action, observation) for action in compact["actions"]]
        names = self.hexes(observation).names
        builds = [
            self.build_base + BUILDING[entry["building"]] * HEXES + names[q, r]
            for entry in compact["builds"]
            for q, r in entry["cells"]
        ]
        return np.fromiter(itertools.chain(others, builds), np.int64, len(others) + len(builds))
