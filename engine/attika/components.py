"""Attika component data: landscapes, buildings, map tiles, setup layouts and counts.

This is the only place that knows the printed contents of the game. Every item says
where it comes from: `sourced` (the rules text or the project's rules file states it)
or `reconstructed` (not published anywhere we could read; made up under the rules
file's constraints, see docs/attika-reconstruction.md). The real values can replace the
reconstructed ones here without touching the rules code, which reads only the derived
tables at the bottom of this module.

Coordinates are the axial `(q, r)` of `engine.hexgrid`; a map tile's seven hexes are
its centre, then the ring in the order of `hexgrid.DIRECTIONS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.hexgrid import NEIGHBOUR_STEPS, encode
from engine.provenance import Provenance

Source = Provenance

LANDSCAPES: tuple[str, ...] = ("mountain", "hill", "forest", "water")
"""Sourced: the four landscape symbols; a card or map symbol is an index into this."""
LETTER_OF_LANDSCAPE = "MHFW"

CARDS_PER_LANDSCAPE = 15
"""Sourced: 60 landscape cards, 15 of each landscape."""
AMPHORAE = 15
"""Sourced: the common supply of amphorae. One is earned per group whose buildings are all
on the map and joined (a landscape card instead when none is left). Our decision on what
it buys (the rules text's "Action supplémentaire"): one more draw or build in the turn's
chosen action, or one landscape card; spent amphorae return to the supply. The details
are in docs/attika-reconstruction.md."""
SHRINES = 4
"""Sourced: four shrine tiles of one hex each."""
STARTING_HANDS: tuple[int, ...] = (4, 5, 6, 7)
"""Sourced: landscape cards dealt to the first, second, third and fourth seat."""
MAIN_STACK_SIZE = 6
REGULAR_STACKS = 3
REGULAR_STACK_SIZE = 8
"""Sourced: the 6 main buildings form one stack, the other 24 three stacks of 8."""
ROAD_COST = 5
"""Sourced: a road costs 5 landscape cards of any type."""


@dataclass(frozen=True)
class Group:
    id: str
    name: str
    size: int
    source: Source


GROUPS: tuple[Group, ...] = (
    Group("city", "City", 10, "sourced"),
    Group("defence", "Defence", 4, "sourced"),
    Group("shipping", "Shipping", 4, "sourced"),
    Group("supply", "Supply", 4, "sourced"),
    Group("roads", "Roads", 4, "sourced"),
    Group("mint", "Mint", 2, "sourced"),
    Group("vineyard", "Vineyard", 2, "sourced"),
)


@dataclass(frozen=True)
class Building:
    id: str
    name: str
    group: str
    cost: str
    """Landscape letters (M, H, F, W), one per symbol printed on the token; a road's
    cost is ROAD_COST cards of any type and is written as the empty string."""
    upstream: str | None
    """The building whose arrow points to this one (free build next to it), if any."""
    main: bool
    source: Source
    note: str = ""


_R: Source = "reconstructed"
_S: Source = "sourced"

BUILDINGS: tuple[Building, ...] = (
    # City: 10 buildings, the costliest group. Temple, Theatre and Oracle are sourced names.
    Building("agora", "Agora", "city", "MHFW", None, True, _R, "name and cost reconstructed"),
    Building("temple", "Temple", "city", "MMHF", "agora", False, _R, "name sourced"),
    Building("theatre", "Theatre", "city", "HHFW", "agora", False, _R, "name sourced"),
    Building("stoa", "Stoa", "city", "FFW", "agora", False, _R),
    Building("oracle", "Oracle", "city", "MHWW", "temple", False, _R, "name sourced"),
    Building("statue", "Statue", "city", "MMF", "temple", False, _R),
    Building("odeon", "Odeon", "city", "HFWW", "theatre", False, _R),
    Building("gymnasium", "Gymnasium", "city", "MHFF", "stoa", False, _R),
    Building("library", "Library", "city", "MFW", "stoa", False, _R),
    Building("bath", "Bath", "city", "MFW", "gymnasium", False, _R),
    # Defence: Quarry -> Fortress -> Tower, Tower (sourced arrows); the Fortress's cost is
    # sourced (3 mountains + 1 hill), the others' costs are reconstructed.
    Building("quarry", "Quarry", "defence", "MMH", None, True, _R, "name and arrow sourced"),
    Building("fortress", "Fortress", "defence", "MMMH", "quarry", False, _S),
    Building("tower_1", "Tower", "defence", "MHF", "fortress", False, _R, "name, arrow sourced"),
    Building("tower_2", "Tower", "defence", "MHF", "fortress", False, _R, "name, arrow sourced"),
    # Shipping: Harbour and Ships are sourced names; the arrows and costs are reconstructed.
    Building("harbour", "Harbour", "shipping", "WWF", None, True, _R, "name sourced"),
    Building("ship_1", "Ship", "shipping", "WF", "harbour", False, _R, "name sourced"),
    Building("ship_2", "Ship", "shipping", "WF", "ship_1", False, _R, "name sourced"),
    Building("ship_3", "Ship", "shipping", "W", "ship_1", False, _R, "name sourced"),
    # Supply: grain fields are sourced; the main building, arrows and costs reconstructed.
    Building("granary", "Granary", "supply", "HHW", None, True, _R),
    Building("field_1", "Grain field", "supply", "HW", "granary", False, _R, "name sourced"),
    Building("field_2", "Grain field", "supply", "HF", "field_1", False, _R, "name sourced"),
    Building("field_3", "Grain field", "supply", "H", "field_2", False, _R, "name sourced"),
    # Roads: no main building and no arrows; 5 cards of any type; free next to an own road.
    Building("road_1", "Road", "roads", "", None, False, _S),
    Building("road_2", "Road", "roads", "", None, False, _S),
    Building("road_3", "Road", "roads", "", None, False, _S),
    Building("road_4", "Road", "roads", "", None, False, _S),
    # Mint: the main building and its one follower; names of the follower and costs
    # reconstructed.
    Building("mint", "Mint", "mint", "MMW", None, True, _R, "group name sourced"),
    Building("treasury", "Treasury", "mint", "MW", "mint", False, _R),
    # Vineyard -> Vintner is sourced; the costs are reconstructed.
    Building("vineyard", "Vineyard", "vineyard", "HHF", None, True, _R, "name, arrow sourced"),
    Building("vintner", "Vintner", "vineyard", "HFW", "vineyard", False, _R, "name, arrow sourced"),
)


@dataclass(frozen=True)
class MapTile:
    id: int
    hexes: str
    """Seven letters: the centre, then the ring in `hexgrid.DIRECTIONS` order; M, H, F, W
    for a landscape symbol, `.` for a blank hex."""
    source: Source


_TILE_HEXES = (
    "..MFWFH",
    ".FHWMF.",
    ".HFMW..",
    ".FHWM.W",
    "W.M.F.H",
    ".F.F.WM",
    "HWFW..M",
    ".M.W.FH",
    ".MH.FWH",
    "WMFHM..",
    ".M.FWMH",
    ".HMWF.F",
    "W..F.HM",
    ".FMH.WM",
    ".W.H.HF",
    "FHW..WM",
    ".W.HMHF",
    "..MFMH.",
    "..MW.WH",
    "MWH.FH.",
    "M.WH.F.",
    ".HMW..F",
)
MAP_TILES: tuple[MapTile, ...] = tuple(
    MapTile(i, hexes, "reconstructed") for i, hexes in enumerate(_TILE_HEXES)
)
"""Reconstructed: 22 tiles (the count is sourced), 12 with 5 symbols and 10 with 4,
25 symbols of each landscape in all; no two equal symbols side by side on a tile."""


@dataclass(frozen=True)
class SetupLayout:
    players: int
    tile_centres: tuple[tuple[int, int], ...]
    """Where the first tiles of the shuffled pile go, in this order, unrotated."""
    shrines: tuple[tuple[int, int], ...]
    source: Source


SETUP_LAYOUTS: dict[int, SetupLayout] = {
    layout.players: layout
    for layout in (
        SetupLayout(2, ((0, 0), (2, 1), (-1, 3), (1, 4)), ((0, -2), (1, 6)), _R),
        SetupLayout(
            3,
            ((0, 0), (2, 1), (4, 2), (-1, 3), (1, 4), (-2, 6)),
            ((0, -2), (6, 2), (-4, 8)),
            _R,
        ),
        SetupLayout(
            4,
            ((0, 0), (2, 1), (4, 2), (-1, 3), (1, 4), (-4, 5), (-2, 6), (0, 7)),
            ((0, -2), (6, 2), (-6, 5), (0, 9)),
            _R,
        ),
    )
}
"""Reconstructed patterns (the tile and shrine counts, 4/6/8 and 2/3/4, are sourced):
a rhombus, a triangle and a 3-2-3 block of tiles, each with a shrine off every corner
tile; see the drawings in docs/attika-reconstruction.md."""


# --- derived tables the rules read ---------------------------------------------------

BUILDING_COUNT = len(BUILDINGS)
BUILDING_INDEX: dict[str, int] = {b.id: i for i, b in enumerate(BUILDINGS)}
GROUP_INDEX: dict[str, int] = {g.id: i for i, g in enumerate(GROUPS)}
GROUP_OF: tuple[int, ...] = tuple(GROUP_INDEX[b.group] for b in BUILDINGS)
GROUP_MEMBERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, b in enumerate(BUILDINGS) if b.group == g.id) for g in GROUPS
)
IS_MAIN: tuple[bool, ...] = tuple(b.main for b in BUILDINGS)
IS_ROAD: tuple[bool, ...] = tuple(b.group == "roads" for b in BUILDINGS)
UPSTREAM: tuple[int, ...] = tuple(
    -1 if b.upstream is None else BUILDING_INDEX[b.upstream] for b in BUILDINGS
)
"""Index of the building each one's arrow comes from, or -1."""
COST: tuple[tuple[int, int, int, int], ...] = tuple(
    (
        b.cost.count("M"),
        b.cost.count("H"),
        b.cost.count("F"),
        b.cost.count("W"),
    )
    for b in BUILDINGS
)
"""Printed cost of each building, in cards of each landscape (zeros for a road)."""
WORST: tuple[int, ...] = tuple(
    ROAD_COST if IS_ROAD[b] else 2 * sum(COST[b]) for b in range(BUILDING_COUNT)
)
"""The most a building can cost before the surcharge: nothing discounted, nothing matched."""
MAIN_BUILDINGS: tuple[int, ...] = tuple(i for i, b in enumerate(BUILDINGS) if b.main)
REGULAR_BUILDINGS: tuple[int, ...] = tuple(i for i, b in enumerate(BUILDINGS) if not b.main)
TILE_SYMBOLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(LETTER_OF_LANDSCAPE.find(letter) for letter in tile.hexes) for tile in MAP_TILES
)
"""Per tile, the landscape index of each of its seven hexes (-1 for blank)."""


Discount = tuple[int, int, int, int, int]
"""What a free cell takes off a building's cost: the symbols of each landscape on it and
on its free neighbours, then their total (`costs.discount`)."""


def tile_cells(q: int, r: int, rotation: int) -> list[int]:
    """The seven cells of a tile centred on (q, r): the centre, then ring hex k of the
    tile's data on the neighbour in direction (k + rotation) % 6."""
    centre = encode(q, r)
    return [centre] + [centre + NEIGHBOUR_STEPS[(k + rotation) % 6] for k in range(6)]


def _check() -> None:
    """The sourced counts must hold whatever reconstructed values are dropped in."""
    if BUILDING_COUNT != 30 or len(MAIN_BUILDINGS) != MAIN_STACK_SIZE:
        raise AssertionError("a player has 30 buildings, 6 of them main buildings")
    if len(REGULAR_BUILDINGS) != REGULAR_STACKS * REGULAR_STACK_SIZE:
        raise AssertionError("the 24 other buildings make 3 stacks of 8")
    for group, members in zip(GROUPS, GROUP_MEMBERS, strict=True):
        if len(members) != group.size:
            raise AssertionError(f"group {group.id} should have {group.size} buildings")
    if len(MAP_TILES) != 22 or any(len(t.hexes) != 7 for t in MAP_TILES):
        raise AssertionError("22 map tiles of 7 hexes")
    for b in BUILDINGS:
        if b.upstream is not None and GROUP_OF[BUILDING_INDEX[b.upstream]] != GROUP_INDEX[b.group]:
            raise AssertionError(f"{b.id}'s arrow must come from its own group")


_check()
