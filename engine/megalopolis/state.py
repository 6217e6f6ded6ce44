"""The Megalopolis game state (its JSON form is in `state_json`).

The board maps coded cells to placed tiles. Each placed tile gets a serial number when it
is put on the board (kept when it moves), so that an effect can tell whether its own tile
is still there. Effects waiting to be resolved form a stack of frames, the top one being
resolved now; their decisions always belong to the player whose turn it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.megalopolis.components import KIND_NAMES, KIND_OF_NAME

DRAW = -1
"""The power of an internal frame: `player` draws one tile (after a Temple's play)."""

FRAME_POWER_NAMES = {DRAW: "draw", **dict(enumerate(KIND_NAMES))}
FRAME_POWER_OF_NAME = {name: power for power, name in FRAME_POWER_NAMES.items()}


def known(value: int | None, what: str) -> int:
    """A frame field that must be set at this step; a broken state raises ValueError."""
    if value is None:
        raise ValueError(f"the frame has no {what}")
    return value


@dataclass(slots=True)
class Tile:
    kind: int
    serial: int
    face_up: bool
    tokens: list[int]
    """Tokens on the tile, per player."""

    def copy(self) -> Tile:
        return Tile(self.kind, self.serial, self.face_up, list(self.tokens))

    def has_tokens(self) -> bool:
        return any(self.tokens)


@dataclass
class Frame:
    """A tile's text being resolved, and how far it has got."""

    power: int
    """The kind whose text this is (or DRAW)."""
    source: int | None
    """Serial of the tile whose text this is."""
    step: int = 0
    count: int = 0
    """Arboretum: tokens taken back so far."""
    chosen: int | None = None
    """Post Office, Transit Station: serial of the tile chosen first."""
    done: list[int] = field(default_factory=list)
    """Capitol: serials of the adjacent tiles already taken over."""
    looked: list[int] = field(default_factory=list)
    """Library: the kinds looked at, in deck order (seen by the acting player only)."""
    player: int | None = None
    """Temple: the player whose hand is played from; DRAW: the player who draws."""

    def copy(self) -> Frame:
        return Frame(
            self.power,
            self.source,
            self.step,
            self.count,
            self.chosen,
            list(self.done),
            list(self.looked),
            self.player,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "power": FRAME_POWER_NAMES[self.power],
            "source": self.source,
            "step": self.step,
            "count": self.count,
            "chosen": self.chosen,
            "done": list(self.done),
            "looked": [KIND_NAMES[k] for k in self.looked],
            "player": self.player,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Frame:
        return cls(
            power=FRAME_POWER_OF_NAME[data["power"]],
            source=None if data["source"] is None else int(data["source"]),
            step=int(data["step"]),
            count=int(data["count"]),
            chosen=None if data["chosen"] is None else int(data["chosen"]),
            done=[int(s) for s in data["done"]],
            looked=[KIND_OF_NAME[name] for name in data["looked"]],
            player=None if data["player"] is None else int(data["player"]),
        )


@dataclass(slots=True)
class Caches:
    """What the fast paths keep on a state between turns, derived from its facts and never
    serialized. Whoever changes a state other than through the rules (a test painting a
    position) gives it fresh ones: `state.caches = Caches()`."""

    legal: Any = None
    """(turn, the legal actions then) once asked for (`turns.legal_actions`): `turn` grows
    with every action applied, so they stay right until the next one."""
    open_spaces: Any = None
    """(the occupied cells, the open spaces, the latter sorted) as last computed
    (`fast.open_spaces`); never changed, only replaced, so a copy shares it."""
    board_text: Any = None
    """The board's text in the last message and the cells changed since
    (`fast.board_text.BoardText`), once a message was written; a copy starts without."""
    changed_cells: set[int] | None = None
    """The cells changed since an observer outside the rules last read them, once one
    set it (the training environments' vectors: `agon_bot.envs.fast.megalopolis`); a
    copy starts without."""

    def copy(self) -> Caches:
        return Caches(self.legal, self.open_spaces, None, None)

    def tile_changed(self, code: int) -> None:
        """The tile at `code` (or the cell, now empty) changed: the next message writes
        its text again. Every change of a tile on the table (`table`) says so."""
        if self.board_text is not None:
            self.board_text.changed.add(code)
        if self.changed_cells is not None:
            self.changed_cells.add(code)


@dataclass
class MegalopolisState:
    seed: int
    players: int
    options: dict[str, bool]
    board: dict[int, Tile]
    deck: list[int]
    """Kinds of the face-down draw pile, top first. Hidden from players."""
    hands: list[list[int]]
    """Each player's hand as sorted kinds. Hidden from the other players."""
    supply: list[int]
    """Tokens not on the board, per player."""
    first_player: int
    turn_player: int
    next_serial: int
    stack: list[Frame] = field(default_factory=list)
    resolving: bool = False
    """The turn player has taken their main action and its effects are being resolved."""
    turn: int = 0
    """Actions applied so far (main actions and decisions)."""
    turns_played: int = 0
    """Completed turns, passes included."""
    factory_draws: int = 0
    """Extra tiles the turn player draws after refilling (Factory)."""
    last_token_by: int | None = None
    """The first player to place their last token during this turn (the turn player, or
    another player on a Police HQ), else None. Once set, no further tile is played or
    placed by an effect, and the game's last round follows, counted from this player."""
    final_round: list[int] | None = None
    """Once the end is triggered: the players who still play their last turn, in order."""
    passes: int = 0
    """Turns in a row in which the player could only pass."""
    over: bool = False
    end_reason: str | None = None
    caches: Caches = field(default_factory=Caches, repr=False, compare=False)
    """What the fast paths keep on the state; not a fact of the game."""

    def copy(self) -> MegalopolisState:
        return MegalopolisState(
            seed=self.seed,
            players=self.players,
            options=dict(self.options),
            board={code: tile.copy() for code, tile in self.board.items()},
            deck=list(self.deck),
            hands=[list(hand) for hand in self.hands],
            supply=list(self.supply),
            first_player=self.first_player,
            turn_player=self.turn_player,
            next_serial=self.next_serial,
            stack=[frame.copy() for frame in self.stack],
            resolving=self.resolving,
            turn=self.turn,
            turns_played=self.turns_played,
            factory_draws=self.factory_draws,
            last_token_by=self.last_token_by,
            final_round=None if self.final_round is None else list(self.final_round),
            passes=self.passes,
            over=self.over,
            end_reason=self.end_reason,
            caches=self.caches.copy(),
        )

    def serial_cell(self, serial: int | None) -> int | None:
        """The cell of the tile with this serial, or None if it is not on the board."""
        if serial is None:
            return None
        for code, tile in self.board.items():
            if tile.serial == serial:
                return code
        return None
