"""The Attika game state: the map, the buildings on it, each player's cards, board and
stacks, the landscape deck with its seeded PRNG, and where the current turn stands.

The map and the buildings are also indexed in derived tables (`index.MapIndex`), built
from these facts when a state is made and never serialized.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.attika.index import MapIndex

NO_MODE, DRAW_MODE, BUILD_MODE = 0, 1, 2
MODE_NAMES = ("none", "draw", "build")


@dataclass
class PlayerState:
    hand: list[int]
    """Landscape cards held, counted per landscape. Hidden; the total is public."""
    board: list[int]
    """Building indexes drawn and not yet built, sorted. Face up: public."""
    stacks: list[list[int]]
    """The main stack, then the three other stacks; the next building first. Hidden."""
    amphorae: int = 0
    amphora_groups: list[int] = field(default_factory=list)
    """Groups this player has earned its one amphora (or card) for, sorted."""
    placed: dict[int, int] = field(default_factory=dict)
    """Building index -> cell code of every building of this player on the map."""
    board_text: str | None = field(default=None, compare=False, repr=False)
    """The board's buildings as JSON text (without the brackets), kept by `observation`
    until the board changes (`board_changed`): every message shows every board."""

    shown_text: tuple[tuple[object, ...], str] | None = field(
        default=None, compare=False, repr=False
    )
    """What `observation` last wrote of this seat for every player, with what it wrote
    it from (see `observation._seat_text`)."""

    def copy(self) -> PlayerState:
        return PlayerState(
            hand=list(self.hand),
            board=list(self.board),
            stacks=[list(stack) for stack in self.stacks],
            amphorae=self.amphorae,
            amphora_groups=list(self.amphora_groups),
            placed=dict(self.placed),
            board_text=self.board_text,
            shown_text=self.shown_text,
        )

    def board_changed(self) -> None:
        self.board_text = None


@dataclass
class Pending:
    """A decision the current player owes before anything else.

    `drawn`: build the building just drawn (`building`, from `stack`) or keep it.
    `pay`: choose the cards that pay for `building` on `cell`.
    `tile`: place map tile `tile`.
    `extend` on `drawn`/`pay`: the draw emptied a stack, so a map tile follows.
    `from_draw` on `pay`: the building comes from a draw, not from the board.
    """

    kind: str
    building: int = -1
    stack: int = -1
    cell: int = 0
    tile: int = -1
    extend: bool = False
    from_draw: bool = False


@dataclass
class AttikaState:
    seed: int
    players: int
    options: dict[str, bool]
    seats: list[PlayerState]
    deck: list[int]
    """Landscape cards face down, the next one first. Hidden."""
    discard: list[int]
    """Discarded cards counted per landscape; public."""
    rng_state: int
    """SplitMix64 state used for every reshuffle of the discard."""
    tile_pile: list[int]
    """Map tiles still face down, the next one first. Hidden."""
    tiles: list[tuple[int, int, int, int]]
    """(tile id, q, r, rotation) of every tile on the map, in the order placed."""
    shrines: list[int]
    """Cell codes of the shrines."""
    amphora_supply: int
    turn: int = 0
    """Decisions applied so far."""
    current: int = 0
    mode: int = NO_MODE
    actions_left: int = 0
    took_cards: bool = False
    acted: bool = False
    """The current player has drawn or built a building this turn."""
    pending: Pending | None = None
    passes: int = 0
    """Turns in a row with no building drawn or built while deck and discard were empty."""
    winner: int | None = None
    win_reason: str | None = None
    over: bool = False

    index: MapIndex = field(init=False, repr=False, compare=False)
    """Tables derived from the map and the buildings on it (never serialized)."""
    legal_cache: Any = field(default=None, repr=False, compare=False)
    """The legal actions of this position once computed; cleared by every change."""
    map_text: Any = field(default=None, repr=False, compare=False)
    """The map's JSON text as last written (`map_text.MapText`); never changed, only
    replaced, so a copy shares it."""
    pile_text: tuple[int, str] | None = field(default=None, repr=False, compare=False)
    """(tiles left, their ids sorted as JSON text) as `observation` last wrote them: the
    pile only loses its first tile, so within a state and its copies the count tells
    which tiles are left."""

    def __post_init__(self) -> None:
        self.index = MapIndex.build(
            self.players, self.tiles, self.shrines, [seat.placed for seat in self.seats]
        )

    def copy(self) -> AttikaState:
        twin = AttikaState.__new__(AttikaState)
        twin.seed = self.seed
        twin.players = self.players
        twin.options = dict(self.options)
        twin.seats = [seat.copy() for seat in self.seats]
        twin.deck = list(self.deck)
        twin.discard = list(self.discard)
        twin.rng_state = self.rng_state
        twin.tile_pile = list(self.tile_pile)
        twin.tiles = list(self.tiles)
        twin.shrines = list(self.shrines)
        twin.amphora_supply = self.amphora_supply
        twin.turn = self.turn
        twin.current = self.current
        twin.mode = self.mode
        twin.actions_left = self.actions_left
        twin.took_cards = self.took_cards
        twin.acted = self.acted
        twin.pending = None if self.pending is None else Pending(**vars(self.pending))
        twin.passes = self.passes
        twin.winner = self.winner
        twin.win_reason = self.win_reason
        twin.over = self.over
        twin.index = self.index.copy()
        twin.legal_cache = self.legal_cache
        twin.map_text = self.map_text
        twin.pile_text = self.pile_text
        return twin
