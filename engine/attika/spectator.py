"""What a spectator sees of an Attika match (see `engine.spectator`).

Public: the map with every building on it, the shrines, the discard, how many cards,
buildings and amphorae each player has, and each board of buildings waiting to be built
(they lie face up). With `reveal` (a finished match): each hand of landscape cards and
the building just drawn. Map hexes are `[q, r, landscape, seat, building]` sorted by (q, r): the
landscape's name or null for a blank hex, then the owner and id of the building on it
or nulls.
"""

from __future__ import annotations

from typing import Any

from engine.attika.actions import parse_action
from engine.attika.components import BUILDINGS, GROUP_OF, GROUPS, LANDSCAPES
from engine.attika.state import MODE_NAMES, AttikaState
from engine.attika.turns import FORGO_ALL_CARDS
from engine.core import JSON
from engine.hexgrid import decode
from engine.spectator import Explained

_STACKS = ("the main stack", "stack 1", "stack 2", "stack 3")


def _building(index: int) -> str:
    building = BUILDINGS[index]
    return f"{building.name} ({GROUPS[GROUP_OF[index]].name})"


def _cards(counts: tuple[int, ...] | list[int]) -> str:
    parts = [f"{n} {LANDSCAPES[i]}" for i, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else "nothing"


class AttikaSpectator:
    def view(self, state: AttikaState, *, reveal: bool) -> dict[str, JSON]:
        index = state.caches.index
        pending = state.pending
        pending_view: dict[str, Any] = {"kind": None, "building": None, "cell": None}
        if pending is not None:
            pending_view["kind"] = pending.kind
            if pending.kind == "pay" or (pending.kind == "drawn" and reveal):
                pending_view["building"] = BUILDINGS[pending.building].id
            if pending.kind == "pay":
                pending_view["cell"] = list(decode(pending.cell))
        hexes = []
        for cell in sorted(index.symbol_at):
            symbol = index.symbol_at[cell]
            owner = index.owner_at.get(cell)
            hexes.append(
                [
                    *decode(cell),
                    None if symbol < 0 else LANDSCAPES[symbol],
                    owner,
                    None if owner is None else BUILDINGS[index.building_at[cell]].id,
                ]
            )
        return {
            "turn": state.turn,
            "current": None if state.over else state.current,
            "over": state.over,
            "winner": state.winner,
            "win_reason": state.win_reason,
            "action": MODE_NAMES[state.mode],
            "actions_left": state.actions_left,
            "pending": pending_view,
            "groups": {b.id: GROUPS[GROUP_OF[i]].id for i, b in enumerate(BUILDINGS)},
            "hexes": hexes,
            "shrines": [list(decode(cell)) for cell in state.shrines],
            "tiles": [[tile, q, r, rotation] for tile, q, r, rotation in state.tiles],
            "tiles_left": len(state.tile_pile),
            "deck": len(state.deck),
            "discard": dict(zip(LANDSCAPES, state.discard, strict=True)),
            "amphora_supply": state.amphora_supply,
            "scores": [len(seat.placed) for seat in state.seats],
            "seats": [
                {
                    "hand_size": sum(seat.hand),
                    "board_size": len(seat.board),
                    "stack_sizes": [len(stack) for stack in seat.stacks],
                    "amphorae": seat.amphorae,
                    "amphora_groups": [GROUPS[g].id for g in seat.amphora_groups],
                    "colonies": index.colonies[player],
                    "hand": dict(zip(LANDSCAPES, seat.hand, strict=True)) if reveal else None,
                    "board": [BUILDINGS[b].id for b in seat.board],
                }
                for player, seat in enumerate(state.seats)
            ],
        }

    def explain(self, state: AttikaState, seat: int, action: JSON) -> Explained:
        parsed = parse_action(action)
        kind = parsed[0]
        if kind == "draw":
            return Explained(f"drew a building from {_STACKS[parsed[1]]}")
        if kind == "build":
            _, building, cell = parsed
            q, r = decode(cell)
            return Explained(f"built the {_building(building)} at ({q}, {r})", {"cells": [[q, r]]})
        if kind == "keep":
            return Explained("kept the building just drawn on their board")
        if kind == "pay":
            pending = state.pending
            what = f" for the {_building(pending.building)}" if pending is not None else ""
            return Explained(f"paid {_cards(parsed[1])}{what}")
        if kind == "extend":
            _, centre, rotation = parsed
            q, r = decode(centre)
            tile = state.pending.tile if state.pending is not None else None
            name = f"map tile {tile}" if tile is not None else "a map tile"
            return Explained(
                f"placed {name} with its centre at ({q}, {r}), turned {rotation}",
                {"cells": [[q, r]]},
            )
        if kind == "amphora":
            use = "one more draw or build" if parsed[1] == "action" else "a landscape card"
            return Explained(f"spent an amphora on {use}")
        cards = state.actions_left if state.acted else FORGO_ALL_CARDS
        taken = f" for {cards} card{'s' * (cards != 1)}" if cards else ""
        return Explained(f"ended the turn{taken}")
