"""A text picture of an Architekton position, for `agon replay show`.

Every tile is a block of 3 x 3 characters, north up. A landscape is filled with the lower
case initial of its terrain; a building shows the upper case initials of the terrains on
its four edges around the digit of the player whose house stands on it (`.`: none).
"""

from __future__ import annotations

from engine.architekton.board import kept_houses, largest_group
from engine.architekton.components import TERRAINS, rotated_edges
from engine.architekton.state import MOVE_HOUSE, OVER, RESERVE_TURN, ArchitektonState
from engine.architekton.turns import current_player
from engine.squaregrid import bounds, encode

LEGEND = "w water  m mountain  p plain  f forest; a building: its edge terrains around its owner"


def tile_block(state: ArchitektonState, code: int) -> tuple[str, str, str]:
    terrain = state.landscapes.get(code)
    if terrain is not None:
        letter = TERRAINS[terrain][0]
        return (letter * 3,) * 3
    building = state.buildings.get(code)
    if building is None:
        return ("   ",) * 3
    north, east, south, west = (TERRAINS[t][0].upper() for t in rotated_edges(*building))
    owner = state.houses.get(code)
    middle = "." if owner is None else str(owner)
    return f" {north} ", f"{west}{middle}{east}", f" {south} "


def render_board(state: ArchitektonState) -> list[str]:
    codes = {*state.landscapes, *state.buildings}
    min_x, max_x, min_y, max_y = bounds(codes)
    rows = []
    for y in range(max_y, min_y - 1, -1):
        blocks = [tile_block(state, encode(x, y)) for x in range(min_x, max_x + 1)]
        for line in range(3):
            rows.append(" ".join(block[line] for block in blocks).rstrip())
    return rows


def describe_pending(state: ArchitektonState) -> str:
    if not state.pending:
        return ""
    decision = state.pending[0]
    where = decision.to_json()
    if decision.kind == MOVE_HOUSE:
        return f"Player {decision.player} moves a house onto ({where['x']}, {where['y']})"
    return (
        f"Player {decision.player} loses {decision.loss} at ({where['x']}, {where['y']}): "
        "remove the house?"
    )


def render_state(state: ArchitektonState) -> str:
    if state.stage == OVER:
        status = " (game over)"
    else:
        status = f", player {current_player(state)} to act"
        if state.stage == RESERVE_TURN:
            status += " (last turn, from the reserve)"
    kept = kept_houses(state)
    lines = [
        f"Architekton, turn {state.turn}{status}",
        "Display: buildings "
        + "  ".join(
            f"#{t} " + "".join(TERRAINS[e][0].upper() for e in rotated_edges(t, 0))
            for t in state.display_buildings
        )
        + " | landscapes "
        + " ".join(TERRAINS[t] for t in state.display_landscapes),
        f"Piles: {len(state.building_pile)} buildings, {len(state.landscape_pile)} landscapes;"
        f" reserve {len(state.reserve_buildings)} + {len(state.reserve_landscapes)}",
    ]
    for player in range(state.players):
        group = largest_group(code for code, owner in kept.items() if owner == player)
        lines.append(
            f"Player {player}: {state.points[player]} points, {state.supply[player]} houses "
            f"in supply, {state.removed[player]} removed, largest kept group {group}"
            + (" - lost" if state.loser == player else "")
        )
    pending = describe_pending(state)
    if pending:
        lines.append(pending)
    lines.append(LEGEND)
    lines += ["", *render_board(state)]
    return "\n".join(lines) + "\n"
