"""Trying moves on a position with the real rules: `Lookahead`.

    from agon_bot import Bot, Lookahead

    class OneMoveAhead(Bot):
        def start(self, info):
            self.game = info["game"]

        def act(self, observation, legal_actions):
            position = Lookahead(self.game, observation)
            return max(legal_actions, key=position.lead_after)

A game that keeps its scores up to date as moves are applied (Akropolis does) scores
each try without rescoring the cities, and its copies share what a move does not change;
for the others the score is the `result` the game would have if it ended there.
`score_after` (the mover's score alone) is the cheapest try; `lead_after` and
`scores_after` read every seat's. Each takes an action, checked as the referee checks
it, or an index into `legal`, the position's own legal actions, which a game with
`apply_legal` (Akropolis) applies without checking again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core import JSONValue
from engine.registry import get_spec


class Lookahead:
    """The position a player sees, rebuilt as a state (hidden parts guessed by the game)."""

    def __init__(self, game_id: str, observation: JSONValue) -> None:
        spec = get_spec(game_id)
        if spec.state_from_observation is None:
            raise ValueError(f"{spec.name} cannot rebuild a state from an observation")
        self.game = spec.game
        self.state: Any = spec.state_from_observation(observation)
        self.player = self.game.current_player(self.state)
        self._scores: Callable[[Any], list[int]] = spec.scores or (
            lambda state: self.game.result(state).scores
        )
        self._score: Callable[[Any, int], int] = spec.score or (
            lambda state, seat: self._scores(state)[seat]
        )
        self._legal: Sequence[Any] | None = None
        self._apply_legal: Callable[[Any, Sequence[Any], int], None] | None = getattr(
            self.game, "apply_legal", None
        )
        if spec.scores is not None:
            # Scored once here, the position's scores are kept up to date on every copy.
            spec.scores(self.state)

    def scores(self) -> list[int]:
        """Every seat's score now."""
        return self._scores(self.state)

    @property
    def legal(self) -> Sequence[Any]:
        """The position's own legal actions (in the order of those the referee sends)."""
        if self._legal is None:
            self._legal = self.game.legal_actions(self.state)
        return self._legal

    def after(self, move: Any) -> Any:
        """A copy of the position with the move applied (the position is unchanged). A
        move is an action, checked as the referee would, or an index into `legal`: the
        fast way, not checked again where the game allows it (the action was made from
        this very position)."""
        state = self.game.copy_state(self.state)
        if type(move) is not int:
            self.game.apply(state, move)
        elif self._apply_legal is not None:
            self._apply_legal(state, self.legal, move)
        else:
            self.game.apply(state, self.legal[move])
        return state

    def scores_after(self, move: Any) -> list[int]:
        """Every seat's score once the move (an action or an index into `legal`) is played."""
        return self._scores(self.after(move))

    def score_after(self, move: Any) -> int:
        """The mover's score once the move is played: the cheapest evaluation (the
        other seats' scores are not worked out)."""
        return self._score(self.after(move), self.player)

    def lead_after(self, move: Any) -> int:
        """The mover's score once the move is played, less the best of the others'."""
        scores = self.scores_after(move)
        others = [score for seat, score in enumerate(scores) if seat != self.player]
        return scores[self.player] - max(others, default=0)
