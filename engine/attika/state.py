"""The Attika game state: the map, the buildings on it, each player's cards, board and
stacks, the landscape deck with its seeded PRNG, and where the current turn stands.

The map and the buildings are also indexed in derived tables (`fast.index.MapIndex`),
built from these facts when a state is made, kept in the state's caches and never
serialized.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.attika.components import TILE_SYMBOLS, tile_cells
from engine.attika.fast.index import MapIndex

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

    def copy(self) -> PlayerState:
        return PlayerState(
            hand=list(self.hand),
            board=list(self.board),
            stacks=[list(stack) for stack in self.stacks],
            amphorae=self.amphorae,
            amphora_groups=list(self.amphora_groups),
            placed=dict(self.placed),
        )


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


@dataclass(slots=True)
class Caches:
    """What the fast paths keep on a state, derived from its facts and never serialized.
    Whoever changes a state other than through the rules (a test painting a position)
    gives it fresh ones (`AttikaState.rebuild_caches`)."""

    index: MapIndex
    """Tables derived from the map and the buildings on it (`fast.index`), kept up to
    date move by move by `map.place_tile` and `effects.place_building`."""
    legal: Any = None
    """The legal actions of this position once computed (`turns.legal_actions`); cleared
    by every change."""
    map_text: Any = None
    """The map's JSON text as last written (`fast.map_text.MapText`); never changed, only
    replaced, so a copy shares it."""

    def copy(self) -> Caches:
        return Caches(self.index.copy(), self.legal, self.map_text)


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

    hexes: dict[int, int] = field(init=False, repr=False, compare=False)
    """Cell -> the landscape symbol (-1 blank) of every hex of the tiles on the map (the
    tiles' seven hexes, as `tiles` places them). Never changed in place, only replaced
    (`map.place_tile`), so a copy shares it."""
    caches: Caches = field(init=False, repr=False, compare=False)
    """What the fast paths keep on the state; not a fact of the game."""

    def __post_init__(self) -> None:
        self.hexes = {
            cell: symbol
            for tile, q, r, rotation in self.tiles
            for cell, symbol in zip(tile_cells(q, r, rotation), TILE_SYMBOLS[tile], strict=True)
        }
        self.rebuild_caches()

    def rebuild_caches(self) -> None:
        """The caches made afresh from the facts: for a state made, or changed other than
        through the rules (a test painting a position)."""
        self.caches = Caches(
            MapIndex.from_symbols(
                self.players, self.hexes, self.shrines, [seat.placed for seat in self.seats]
            )
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
        twin.hexes = self.hexes
        twin.caches = self.caches.copy()
        return twin
