"""What a spectator sees of a Megalopolis match (see `engine.spectator`).

Public: every tile on the table (face-down ones without their kind), the tokens on
them and in each supply, the size of each hand and of the deck, the texts being
resolved. With `reveal` (a finished match): the hands and the face-down tiles' kinds.
Tiles are `[serial, x, y, kind, face_up, tokens]` in the order they came onto the table,
so a step changes few entries.
"""

from __future__ import annotations

from engine.core import JSON
from engine.megalopolis.actions import ALL_TOKENS, parse_action
from engine.megalopolis.components import KIND_NAMES, KINDS
from engine.megalopolis.scoring import score_state
from engine.megalopolis.state import FRAME_POWER_NAMES, MegalopolisState
from engine.spectator import Explained, seat_name
from engine.squaregrid import decode

_SPECIAL_NAMES = {"police_hq": "Police HQ"}


def kind_title(name: str) -> str:
    return _SPECIAL_NAMES.get(name) or name.replace("_", " ").title()


class MegalopolisSpectator:
    def view(self, state: MegalopolisState, *, reveal: bool) -> dict[str, JSON]:
        scores = score_state(state)
        tiles = sorted(state.board.items(), key=lambda item: item[1].serial)
        return {
            "turn": state.turn,
            "turns_played": state.turns_played,
            "current": None if state.over else state.turn_player,
            "over": state.over,
            "end_reason": state.end_reason,
            "first_player": state.first_player,
            "kinds": {
                kind.name: [kind.abbreviation, kind_title(kind.name), kind.bonus, kind.silver]
                for kind in KINDS
            },
            "tokens": list(state.supply),
            "hand_sizes": [len(hand) for hand in state.hands],
            "hands": [[KIND_NAMES[k] for k in hand] for hand in state.hands] if reveal else None,
            "deck": len(state.deck),
            "tiles": [
                [
                    tile.serial,
                    *decode(code),
                    KIND_NAMES[tile.kind] if tile.face_up or reveal else None,
                    tile.face_up,
                    list(tile.tokens),
                ]
                for code, tile in tiles
            ],
            "resolving": [
                [FRAME_POWER_NAMES[frame.power], frame.source, frame.step] for frame in state.stack
            ],
            "final_round": None if state.final_round is None else list(state.final_round),
            "scores": [score.total for score in scores],
            "breakdown": [
                [score.group_points, score.bonus_points, score.silver_points] for score in scores
            ],
        }

    def explain(self, state: MegalopolisState, seat: int, action: JSON) -> Explained:
        choice = parse_action(action)
        kind = choice[0]
        frame = state.stack[-1] if state.stack else None
        why = f" for the {kind_title(FRAME_POWER_NAMES[frame.power])}" if frame else ""
        if kind == "play":
            x, y = decode(choice[2])
            return Explained(
                f"played a {kind_title(KIND_NAMES[choice[1]])} at ({x}, {y}){why}",
                {"cells": [[x, y]]},
            )
        if kind == "hotel":
            x, y = decode(choice[1])
            return Explained(f"put a token on the Hotel at ({x}, {y})", {"cells": [[x, y]]})
        if kind in ("tile", "token"):
            x, y = decode(choice[1])
            tile = state.board.get(choice[1])
            name = (
                f"the {kind_title(KIND_NAMES[tile.kind])}"
                if tile is not None and tile.face_up
                else "the face-down tile"
            )
            if kind == "tile":
                text = f"chose {name} at ({x}, {y}){why}"
            elif choice[2] == ALL_TOKENS:
                text = f"chose all the tokens on {name} at ({x}, {y}){why}"
            else:
                text = f"chose a token of {seat_name(choice[2])} on {name} at ({x}, {y}){why}"
            return Explained(text, {"cells": [[x, y]]})
        if kind == "space":
            x, y = decode(choice[1])
            return Explained(f"chose the empty space ({x}, {y}){why}", {"cells": [[x, y]]})
        if kind == "player":
            return Explained(f"chose {seat_name(choice[1])}{why}")
        if kind == "done":
            return Explained(f"took back no more tokens{why}")
        return Explained("could do nothing and passed")
