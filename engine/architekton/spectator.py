"""What a spectator sees of an Architekton match (see `engine.spectator`).

The table is public but for the order of the face-down piles and the reserve, so
`reveal` changes nothing. Tiles are listed in the order they were placed:
`landscapes` as `[x, y, terrain]`, `buildings` as `[x, y, tile, rotation, edges, house]`
with the terrains of the north, east, south and west edges as turned and the seat of the
house on it (null: none).
"""

from __future__ import annotations

from engine.architekton.actions import parse_action
from engine.architekton.board import kept_houses, largest_group
from engine.architekton.components import TERRAINS, rotated_edges
from engine.architekton.state import MOVE_HOUSE, OVER, ArchitektonState
from engine.core import JSON
from engine.spectator import Explained
from engine.squaregrid import decode

_DIRECTIONS = ("north", "east", "south", "west")


def _edges(tile_id: int, rotation: int) -> list[str]:
    return [TERRAINS[t] for t in rotated_edges(tile_id, rotation)]


class ArchitektonSpectator:
    def view(self, state: ArchitektonState, *, reveal: bool) -> dict[str, JSON]:
        over = state.stage == OVER
        kept = kept_houses(state)
        groups = [
            largest_group(code for code, owner in kept.items() if owner == player)
            for player in range(state.players)
        ]
        if state.loser is not None:
            scores = list(state.points)
        else:
            scores = [state.points[p] + (groups[p] if over else 0) for p in range(state.players)]
        current = (
            None if over else (state.pending[0].player if state.pending else state.turn_player)
        )
        return {
            "turn": state.turn,
            "current": current,
            "turn_player": state.turn_player,
            "stage": state.stage,
            "over": over,
            "points": list(state.points),
            "scores": scores,
            "largest_groups": groups,
            "houses_in_supply": list(state.supply),
            "houses_removed": list(state.removed),
            "lost_early": state.loser,
            "display": {
                "buildings": [[t, _edges(t, 0)] for t in state.display_buildings],
                "landscapes": [TERRAINS[t] for t in state.display_landscapes],
            },
            "piles": [len(state.building_pile), len(state.landscape_pile)],
            "reserve": [len(state.reserve_buildings), len(state.reserve_landscapes)],
            "landscapes": [
                [*decode(code), TERRAINS[terrain]] for code, terrain in state.landscapes.items()
            ],
            "buildings": [
                [
                    *decode(code),
                    tile_id,
                    rotation,
                    _edges(tile_id, rotation),
                    state.houses.get(code),
                ]
                for code, (tile_id, rotation) in state.buildings.items()
            ],
            "pending": [[d.kind, d.player, *decode(d.cell), d.loss] for d in state.pending],
        }

    def explain(self, state: ArchitektonState, seat: int, action: JSON) -> Explained:
        raw = parse_action(action)
        kind = raw[0]
        if kind == "building":
            _, tile_id, x, y, rotation = raw
            edges = ", ".join(
                f"{direction} {terrain}"
                for direction, terrain in zip(_DIRECTIONS, _edges(tile_id, rotation), strict=True)
            )
            turned = f", turned {rotation} quarter turn{'s' * (rotation > 1)}" if rotation else ""
            return Explained(
                f"placed building {tile_id} at ({x}, {y}){turned} ({edges})",
                {"cells": [[x, y]]},
            )
        if kind == "landscape":
            _, terrain, x, y = raw
            return Explained(
                f"placed a {TERRAINS[terrain]} landscape at ({x}, {y})", {"cells": [[x, y]]}
            )
        if kind == "pass":
            return Explained("could place no tile and passed")
        decision = state.pending[0] if state.pending else None
        where = list(decode(decision.cell)) if decision else None
        if kind == "house":
            _, x, y = raw
            onto = f" onto the building at ({where[0]}, {where[1]})" if where else ""
            return Explained(
                f"had no house left and moved the house from ({x}, {y}){onto}",
                {"cells": [[x, y], *([where] if where else [])]},
            )
        remove = bool(raw[1])
        if decision is None or decision.kind == MOVE_HOUSE:
            return Explained("removed a house" if remove else "kept a house")
        place = f"({where[0]}, {where[1]})" if where else "?"
        if remove:
            text = (
                f"removed the house at {place} from play and lost {max(decision.loss - 1, 0)} "
                f"point{'s' * (decision.loss - 1 != 1)} instead of {decision.loss}"
            )
        else:
            points = f"{decision.loss} point{'s' * (decision.loss != 1)}"
            text = f"kept the house at {place} and lost {points}"
        return Explained(text, {"cells": [where]} if where else None)
