"""The Attika state as JSON and back. Cells are `[q, r]`, buildings and groups by id,
cards counted per landscape, the deck a string of landscape letters (next card first)."""

from __future__ import annotations

from typing import Any

from engine.attika.components import (
    BUILDING_INDEX,
    BUILDINGS,
    GROUP_INDEX,
    GROUPS,
    LANDSCAPES,
    LETTER_OF_LANDSCAPE,
)
from engine.attika.state import MODE_NAMES, AttikaState, Pending, PlayerState
from engine.hexgrid import decode, encode


def cell_json(cell: int) -> list[int]:
    q, r = decode(cell)
    return [q, r]


def cell_from_json(data: Any) -> int:
    q, r = data
    return encode(int(q), int(r))


def cards_json(counts: list[int] | tuple[int, ...]) -> dict[str, int]:
    return dict(zip(LANDSCAPES, counts, strict=True))


def cards_from_json(data: Any) -> list[int]:
    return [int(data[name]) for name in LANDSCAPES]


def pending_json(pending: Pending | None) -> dict[str, Any] | None:
    if pending is None:
        return None
    data: dict[str, Any] = {"kind": pending.kind}
    if pending.kind in ("drawn", "pay"):
        data["building"] = BUILDINGS[pending.building].id
        data["extend"] = pending.extend
    if pending.kind == "drawn":
        data["stack"] = pending.stack
    if pending.kind == "pay":
        data["cell"] = cell_json(pending.cell)
        data["from_draw"] = pending.from_draw
    if pending.kind == "tile":
        data["tile"] = pending.tile
    return data


def pending_from_json(data: Any) -> Pending | None:
    if data is None:
        return None
    pending = Pending(str(data["kind"]))
    if pending.kind in ("drawn", "pay"):
        pending.building = BUILDING_INDEX[data["building"]]
        pending.extend = bool(data["extend"])
    if pending.kind == "drawn":
        pending.stack = int(data["stack"])
    if pending.kind == "pay":
        pending.cell = cell_from_json(data["cell"])
        pending.from_draw = bool(data["from_draw"])
    if pending.kind == "tile":
        pending.tile = int(data["tile"])
    return pending


def seat_json(seat: PlayerState) -> dict[str, Any]:
    return {
        "hand": cards_json(seat.hand),
        "board": [BUILDINGS[b].id for b in seat.board],
        "stacks": [[BUILDINGS[b].id for b in stack] for stack in seat.stacks],
        "amphorae": seat.amphorae,
        "amphora_groups": [GROUPS[g].id for g in seat.amphora_groups],
        "buildings": [
            {"building": BUILDINGS[b].id, "cell": cell_json(cell)}
            for b, cell in sorted(seat.placed.items())
        ],
    }


def seat_from_json(data: Any) -> PlayerState:
    return PlayerState(
        hand=cards_from_json(data["hand"]),
        board=sorted(BUILDING_INDEX[b] for b in data["board"]),
        stacks=[[BUILDING_INDEX[b] for b in stack] for stack in data["stacks"]],
        amphorae=int(data["amphorae"]),
        amphora_groups=sorted(GROUP_INDEX[g] for g in data["amphora_groups"]),
        placed={
            BUILDING_INDEX[entry["building"]]: cell_from_json(entry["cell"])
            for entry in data["buildings"]
        },
    )


def state_to_json(state: AttikaState) -> dict[str, Any]:
    return {
        "game": "attika",
        "seed": state.seed,
        "players": state.players,
        "options": dict(sorted(state.options.items())),
        "turn": state.turn,
        "current": state.current,
        "action": MODE_NAMES[state.mode],
        "actions_left": state.actions_left,
        "took_cards": state.took_cards,
        "acted": state.acted,
        "pending": pending_json(state.pending),
        "passes": state.passes,
        "winner": state.winner,
        "win_reason": state.win_reason,
        "over": state.over,
        "map_tiles": [
            {"tile": tile, "q": q, "r": r, "rotation": rotation}
            for tile, q, r, rotation in state.tiles
        ],
        "shrines": [cell_json(cell) for cell in state.shrines],
        "tile_pile": list(state.tile_pile),
        "deck": "".join(LETTER_OF_LANDSCAPE[card] for card in state.deck),
        "discard": cards_json(state.discard),
        "rng_state": state.rng_state,
        "amphora_supply": state.amphora_supply,
        "seats": [seat_json(seat) for seat in state.seats],
    }


def state_from_json(data: Any) -> AttikaState:
    if not isinstance(data, dict) or data.get("game") != "attika":
        raise ValueError("not an Attika state")
    return AttikaState(
        seed=int(data["seed"]),
        players=int(data["players"]),
        options={str(k): bool(v) for k, v in data["options"].items()},
        seats=[seat_from_json(seat) for seat in data["seats"]],
        deck=[LETTER_OF_LANDSCAPE.index(letter) for letter in data["deck"]],
        discard=cards_from_json(data["discard"]),
        rng_state=int(data["rng_state"]),
        tile_pile=[int(t) for t in data["tile_pile"]],
        tiles=[
            (int(t["tile"]), int(t["q"]), int(t["r"]), int(t["rotation"]))
            for t in data["map_tiles"]
        ],
        shrines=[cell_from_json(cell) for cell in data["shrines"]],
        amphora_supply=int(data["amphora_supply"]),
        turn=int(data["turn"]),
        current=int(data["current"]),
        mode=MODE_NAMES.index(data["action"]),
        actions_left=int(data["actions_left"]),
        took_cards=bool(data["took_cards"]),
        acted=bool(data["acted"]),
        pending=pending_from_json(data["pending"]),
        passes=int(data["passes"]),
        winner=None if data["winner"] is None else int(data["winner"]),
        win_reason=None if data["win_reason"] is None else str(data["win_reason"]),
        over=bool(data["over"]),
    )
