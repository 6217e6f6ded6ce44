"""Nim's rules: one pile of 15 to 24 stones (the seed decides), 2 players, take 1-3."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.core import (
    JSON,
    Game,
    IllegalAction,
    InvalidOptions,
    MatchResult,
    OptionSpec,
    competition_ranks,
)
from engine.players import Player
from engine.rng import SplitMix64

MAX_TAKE = 3
SMALLEST_PILE = 15
PILE_SIZES = 10


@dataclass
class NimState:
    pile: int
    taken: list[int] = field(default_factory=lambda: [0, 0])
    turn: int = 0


def take_of(action: JSON) -> int:
    if not isinstance(action, dict) or set(action) != {"take"}:
        raise IllegalAction(f'an action is {{"take": n}}, not {str(action)[:100]}')
    take = action["take"]
    if not isinstance(take, int) or isinstance(take, bool):
        raise IllegalAction(f"take a whole number of stones, not {str(take)[:100]}")
    return take


class GreedyBot(Player):
    """Leaves the pile at a multiple of 4 when it can (the winning strategy), else takes 1."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> JSON:
        wanted = observation["pile"] % (MAX_TAKE + 1) or 1
        return {"take": wanted}


class Nim(Game[NimState]):
    """Subclasses the contract for its default `observation_text` (no writer of its own)."""

    id = "nim"
    name = "Nim"
    rules_version = 1
    player_counts: tuple[int, ...] = (2,)
    options: tuple[OptionSpec, ...] = ()

    def new_state(self, seed: int, players: int, options: Mapping[str, JSON]) -> NimState:
        if players != 2:
            raise InvalidOptions(f"Nim is for exactly 2 players, not {players!r}")
        if options:
            raise InvalidOptions(f"Nim has no options, not {', '.join(sorted(options))}")
        return NimState(pile=SMALLEST_PILE + SplitMix64(seed).below(PILE_SIZES))

    def current_player(self, state: NimState) -> int:
        return state.turn % 2

    def legal_actions(self, state: NimState) -> list[JSON]:
        return [{"take": n} for n in range(1, min(MAX_TAKE, state.pile) + 1)]

    def apply(self, state: NimState, action: JSON) -> None:
        if self.is_over(state):
            raise IllegalAction("the game is over")
        take = take_of(action)
        if not 1 <= take <= min(MAX_TAKE, state.pile):
            raise IllegalAction(f"take 1 to {min(MAX_TAKE, state.pile)} stones, not {take}")
        state.pile -= take
        state.taken[self.current_player(state)] += take
        state.turn += 1

    def is_over(self, state: NimState) -> bool:
        return state.pile == 0

    def winner(self, state: NimState) -> int | None:
        """Whoever took the last stone: the seat before the one to move."""
        return (state.turn - 1) % 2 if self.is_over(state) else None

    def result(self, state: NimState) -> MatchResult:
        winner = self.winner(state)
        scores = [int(seat == winner) for seat in range(2)]
        return MatchResult(
            scores=scores,
            ranks=competition_ranks([(score,) for score in scores]),
            details=[
                {"stones_taken": state.taken[seat], "took_the_last": seat == winner}
                for seat in range(2)
            ],
        )

    def observation(self, state: NimState, player: int) -> dict[str, Any]:
        return {
            "game": self.id,
            "player": player,
            "turn": state.turn,
            "current_player": self.current_player(state),
            "pile": state.pile,
            "taken": list(state.taken),
        }

    def state_to_json(self, state: NimState) -> dict[str, Any]:
        return {"pile": state.pile, "taken": list(state.taken), "turn": state.turn, "options": {}}

    def state_from_json(self, data: JSON) -> NimState:
        return NimState(pile=data["pile"], taken=list(data["taken"]), turn=data["turn"])

    def copy_state(self, state: NimState) -> NimState:
        return replace(state, taken=list(state.taken))

    def turn_number(self, state: NimState) -> int:
        return state.turn

    def render_text(self, state: NimState) -> str:
        lines = [f"Pile: {state.pile} stones " + "o" * state.pile]
        lines += [f"Seat {seat} took {state.taken[seat]}" for seat in range(2)]
        winner = self.winner(state)
        if winner is None:
            lines.append(f"Seat {self.current_player(state)} to move")
        else:
            lines.append(f"Seat {winner} took the last stone and wins")
        return "\n".join(lines)

    def greedy_bot(self, seed: int) -> GreedyBot:
        return GreedyBot(seed)


NIM = Nim()
