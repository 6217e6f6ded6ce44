"""Akropolis turns: whose turn it is, the legal actions, and applying one.

A turn takes one tile of the Construction Site (position k costs k stones) and places it
in the player's city; when one tile is left in the site, the next stack refills it.
"""

from __future__ import annotations

from engine.akropolis.actions import LegalActions, parse_action
from engine.akropolis.city import City
from engine.akropolis.components import TILES
from engine.akropolis.geometry import STEP, TILE_STEPS, TRIANGLE_ACTIONS, TRIANGLE_FROM_ANCHOR
from engine.akropolis.state import AkropolisState
from engine.core import JSON, IllegalAction
from engine.hexgrid import COORD_LIMIT, encode


def current_player(state: AkropolisState) -> int:
    # A round has players + 1 turns and the Chief Architect passes on each round,
    # so turns simply go round the table.
    return state.turn % state.players


def is_over(state: AkropolisState) -> bool:
    return len(state.site) <= 1 and not state.stacks


def legal_actions(state: AkropolisState) -> LegalActions:
    # `is_over` and `current_player` written out: a playout asks this every turn.
    site = state.site
    if len(site) <= 1 and not state.stacks:
        return LegalActions((), ())
    player = state.turn % state.players
    affordable = range(min(len(site), state.stones[player] + 1))
    city = state.cities[player]
    return LegalActions(affordable, city.legal_triangles(), city)


def apply_action(state: AkropolisState, action: JSON) -> None:
    site, stones = state.site, state.stones
    if len(site) <= 1 and not state.stacks:  # `is_over`, written out as in `legal_actions`
        raise IllegalAction("the game is over")
    position, q, r, rotation = parse_action(action)
    player = state.turn % state.players
    if not 0 <= position < len(site):
        raise IllegalAction(
            f"tile {position} is not in the Construction Site (positions 0..{len(site) - 1})"
        )
    if position > stones[player]:
        raise IllegalAction(
            f"tile {position} costs {position} stones but player {player} has {stones[player]}"
        )
    if not (-FAR < q < FAR and -FAR < r < FAR):
        raise IllegalAction(f"({q}, {r}) is far outside any city")
    anchor = ORIGIN + q * Q_STEP + r * R_STEP
    triangle = 2 * anchor + TRIANGLE_FROM_ANCHOR[rotation]
    if not state.cities[player].can_cover(triangle):
        raise IllegalAction(
            f"tile cannot be placed at ({q}, {r}) rotation {rotation}: "
            + explain_illegal(state.cities[player], anchor, rotation)
        )
    second, third = TILE_STEPS[rotation]
    place_tile(state, player, position, triangle, (anchor, anchor + second, anchor + third))


def apply_legal(state: AkropolisState, legal: LegalActions, index: int) -> None:
    """Apply `legal[index]` without checking it again: `legal` must be
    `legal_actions(state)` of this state as it is now, so the action is legal by
    construction (a lookahead trying its own position's moves). Nothing untrusted comes
    this way: the referee applies bots' actions with `apply_action`."""
    if not 0 <= index < legal.size:
        raise IndexError("legal action index out of range")
    triangles = legal.triangles
    tile, rest = divmod(index, 3 * len(triangles))
    triangle = triangles[rest // 3]
    first, second, third = ACTION_CELLS[triangle & 1][rest % 3]
    y = triangle >> 1
    cells = (y + first, y + second, y + third)
    place_tile(state, state.turn % state.players, legal.tiles[tile], triangle, cells)


def place_tile(
    state: AkropolisState, player: int, position: int, triangle: int, cells: tuple[int, int, int]
) -> None:
    """The rest of a turn once its action is known legal: take the Construction Site's
    tile at `position`, pay for it, place it on `cells` (covering `triangle`)."""
    site, stones = state.site, state.stones
    tile_id = site.pop(position)
    # `city_to_change` called only when the city is shared (the check written out).
    city = (
        state.city_to_change(player) if state.shared_cities >> player & 1 else state.cities[player]
    )
    stones[player] += city.place(triangle, cells, TILE_HEXES[tile_id], tile_id) - position
    state.turn += 1
    if len(site) == 1 and state.stacks:
        site.extend(state.stacks.pop(0))


FAR = COORD_LIMIT - 2
"""Coordinates this far out are refused before they are coded (no city comes near)."""
ORIGIN = encode(0, 0)
Q_STEP = encode(1, 0) - ORIGIN
R_STEP = encode(0, 1) - ORIGIN
ACTION_CELLS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(
        (offset, offset + TILE_STEPS[rotation][0], offset + TILE_STEPS[rotation][1])
        for offset, rotation in actions
    )
    for actions in TRIANGLE_ACTIONS
)
"""For each triangle type, the offsets from y of the three cells each of its three actions
covers, in `TRIANGLE_ACTIONS` order (the anchor's first)."""
TILE_HEXES = {tile_id: tile.hexes for tile_id, tile in TILES.items()}


def explain_illegal(city: City, anchor: int, rotation: int) -> str:
    cells = (anchor, anchor + STEP[rotation], anchor + STEP[(rotation + 1) % 6])
    below = [city.top.get(cell) for cell in cells]
    if all(h is None for h in below):
        return "on level 1 a tile must share an edge with the city"
    if any(h is None for h in below):
        return "a tile cannot stand over an empty space"
    if len({h[0] for h in below if h is not None}) > 1:
        return "the three hexes underneath must be on the same level"
    return "a tile cannot lie on top of a single tile"
