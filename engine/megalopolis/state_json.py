"""The Megalopolis game state's JSON form; the board's also serves the observations."""

from __future__ import annotations

from typing import Any

from engine.megalopolis.components import KIND_NAMES, KIND_OF_NAME
from engine.megalopolis.state import Frame, MegalopolisState, Tile
from engine.squaregrid import decode, encode


def tile_to_json(code: int, tile: Tile, *, show_kind: bool) -> dict[str, Any]:
    x, y = decode(code)
    data: dict[str, Any] = {"x": x, "y": y, "serial": tile.serial, "face_up": tile.face_up}
    if show_kind:
        data["kind"] = KIND_NAMES[tile.kind]
    data["tokens"] = list(tile.tokens)
    return data


def board_to_json(state: MegalopolisState, *, hide_face_down: bool) -> list[dict[str, Any]]:
    return [
        tile_to_json(
            code, state.board[code], show_kind=tile_shown(state.board[code], hide_face_down)
        )
        for code in sorted(state.board)
    ]


def tile_shown(tile: Tile, hide_face_down: bool) -> bool:
    return tile.face_up or not hide_face_down


def state_to_json(state: MegalopolisState) -> dict[str, Any]:
    return {
        "game": "megalopolis",
        "seed": state.seed,
        "players": state.players,
        "options": dict(sorted(state.options.items())),
        "turn": state.turn,
        "turns_played": state.turns_played,
        "first_player": state.first_player,
        "turn_player": state.turn_player,
        "next_serial": state.next_serial,
        "resolving": state.resolving,
        "factory_draws": state.factory_draws,
        "last_token_by": state.last_token_by,
        "final_round": state.final_round,
        "passes": state.passes,
        "over": state.over,
        "end_reason": state.end_reason,
        "supply": list(state.supply),
        "board": board_to_json(state, hide_face_down=False),
        "hands": [[KIND_NAMES[k] for k in hand] for hand in state.hands],
        "deck": [KIND_NAMES[k] for k in state.deck],
        "stack": [frame.to_json() for frame in state.stack],
    }


def board_from_json(tiles: list[dict[str, Any]], players: int) -> dict[int, Tile]:
    board = {}
    for data in tiles:
        tokens = [int(t) for t in data["tokens"]]
        if len(tokens) != players:
            raise ValueError("a tile's tokens must list a count per player")
        board[encode(int(data["x"]), int(data["y"]))] = Tile(
            KIND_OF_NAME[data["kind"]], int(data["serial"]), bool(data["face_up"]), tokens
        )
    return board


def state_from_json(data: dict[str, Any]) -> MegalopolisState:
    if data.get("game") != "megalopolis":
        raise ValueError("not a Megalopolis state")
    players = int(data["players"])
    return MegalopolisState(
        seed=int(data["seed"]),
        players=players,
        options={str(k): bool(v) for k, v in data["options"].items()},
        board=board_from_json(data["board"], players),
        deck=[KIND_OF_NAME[name] for name in data["deck"]],
        hands=[sorted(KIND_OF_NAME[name] for name in hand) for hand in data["hands"]],
        supply=[int(s) for s in data["supply"]],
        first_player=int(data["first_player"]),
        turn_player=int(data["turn_player"]),
        next_serial=int(data["next_serial"]),
        stack=[Frame.from_json(frame) for frame in data["stack"]],
        resolving=bool(data["resolving"]),
        turn=int(data["turn"]),
        turns_played=int(data["turns_played"]),
        factory_draws=int(data["factory_draws"]),
        last_token_by=None if data["last_token_by"] is None else int(data["last_token_by"]),
        final_round=None if data["final_round"] is None else [int(p) for p in data["final_round"]],
        passes=int(data["passes"]),
        over=bool(data["over"]),
        end_reason=None if data["end_reason"] is None else str(data["end_reason"]),
    )
