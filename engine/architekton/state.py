"""The Architekton game state: the board, the display, piles, points and decisions owed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.squaregrid import decode, encode

PLAY, RESERVE_TURN, OVER = "play", "reserve_turn", "over"
STAGES = (PLAY, RESERVE_TURN, OVER)

MOVE_HOUSE, REMOVE_HOUSE = "move_house", "remove_house"


@dataclass
class Decision:
    """A question the rules put to one player before play goes on.

    `move_house`: the player has no house left and must move a placed one onto the new
    building at `cell`. `remove_house`: the building at `cell` is surrounded and costs its
    owner `loss` points; they may remove its house from play to lose one point less.
    """

    kind: str
    player: int
    cell: int
    loss: int = 0

    def to_json(self) -> dict[str, Any]:
        x, y = decode(self.cell)
        data: dict[str, Any] = {"decision": self.kind, "player": self.player, "x": x, "y": y}
        if self.kind == REMOVE_HOUSE:
            data["loss"] = self.loss
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        kind = str(data["decision"])
        if kind not in (MOVE_HOUSE, REMOVE_HOUSE):
            raise ValueError(f"unknown decision {kind!r}")
        return cls(
            kind,
            int(data["player"]),
            encode(int(data["x"]), int(data["y"])),
            int(data.get("loss", 0)),
        )


@dataclass(slots=True)
class Caches:
    """What the fast paths keep on a state, derived from its facts and never serialized.
    Whoever changes the board other than through the rules (a test painting a position)
    gives the state fresh ones: `state.caches = Caches()`."""

    frontier: Any = None
    """Where tiles may go (`fast.frontier.Frontier`), derived from the board when asked;
    never changed, only replaced, so a copy shares it. It follows tiles added to the
    board."""


@dataclass
class ArchitektonState:
    seed: int
    players: int
    options: dict[str, bool]
    landscapes: dict[int, int]
    """Placed landscape tiles: cell code -> terrain."""
    buildings: dict[int, tuple[int, int]]
    """Placed building tiles: cell code -> (tile id, rotation in quarter turns clockwise)."""
    houses: dict[int, int]
    """Houses on buildings: cell code -> owner."""
    building_pile: list[int]
    """Face-down building tile ids, the next to turn up first. Hidden from players."""
    landscape_pile: list[int]
    """Face-down landscape terrains, the next to turn up first. Hidden from players."""
    reserve_buildings: list[int]
    """The face-down reserve, used for the last turn. Hidden from players."""
    reserve_landscapes: list[int]
    display_buildings: list[int]
    display_landscapes: list[int]
    points: list[int]
    supply: list[int]
    """Houses not yet placed, per player."""
    removed: list[int]
    """Houses removed from play to reduce a loss, per player."""
    turn: int = 0
    """Actions applied so far (placements, passes and decisions)."""
    turn_player: int = 0
    turns_taken: list[int] = field(default_factory=lambda: [0, 0])
    placed_this_turn: int = 0
    pending: list[Decision] = field(default_factory=list)
    """Decisions to take, the first one now."""
    stage: str = PLAY
    idle_turns: int = 0
    """Turns in a row in which nothing could be placed."""
    loser: int | None = None
    """The player who could not pay a loss and lost at once."""
    caches: Caches = field(default_factory=Caches, repr=False, compare=False)
    """What the fast paths keep on the state; not a fact of the game."""

    def copy(self) -> ArchitektonState:
        # Field by field rather than through __init__ (a lookahead copies often).
        twin = ArchitektonState.__new__(ArchitektonState)
        twin.seed = self.seed
        twin.players = self.players
        twin.options = dict(self.options)
        twin.landscapes = dict(self.landscapes)
        twin.buildings = dict(self.buildings)
        twin.houses = dict(self.houses)
        twin.building_pile = list(self.building_pile)
        twin.landscape_pile = list(self.landscape_pile)
        twin.reserve_buildings = list(self.reserve_buildings)
        twin.reserve_landscapes = list(self.reserve_landscapes)
        twin.display_buildings = list(self.display_buildings)
        twin.display_landscapes = list(self.display_landscapes)
        twin.points = list(self.points)
        twin.supply = list(self.supply)
        twin.removed = list(self.removed)
        twin.turn = self.turn
        twin.turn_player = self.turn_player
        twin.turns_taken = list(self.turns_taken)
        twin.placed_this_turn = self.placed_this_turn
        twin.pending = [Decision(d.kind, d.player, d.cell, d.loss) for d in self.pending]
        twin.stage = self.stage
        twin.idle_turns = self.idle_turns
        twin.loser = self.loser
        twin.caches = Caches(self.caches.frontier)
        return twin
