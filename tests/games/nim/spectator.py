"""What a spectator of Nim sees: the text picture, the pile, the scores so far."""

from __future__ import annotations

from engine.core import JSON
from engine.spectator import Explained
from tests.games.nim.rules import NIM, NimState, take_of


class NimSpectator:
    def view(self, state: NimState, *, reveal: bool) -> dict[str, JSON]:
        winner = NIM.winner(state)
        return {
            "text": NIM.render_text(state),
            "pile": state.pile,
            "scores": [int(seat == winner) for seat in range(2)],
            "current": None if winner is not None else NIM.current_player(state),
            "over": winner is not None,
        }

    def explain(self, state: NimState, seat: int, action: JSON) -> Explained:
        take = take_of(action)
        left = state.pile - take
        stones = "stone" if take == 1 else "stones"
        return Explained(f"took {take} {stones}, leaving {left}", mark={"pile": left})
