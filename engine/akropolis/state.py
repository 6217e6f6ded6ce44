"""The Akropolis game state: the stacks, the Construction Site, stones and cities."""

from __future__ import annotations

from dataclasses import dataclass

from engine.akropolis.city import City


@dataclass
class AkropolisState:
    seed: int
    players: int
    options: dict[str, bool]
    stacks: list[list[int]]
    """Face-down stacks of tile ids, the next one to reveal first. Hidden from players."""
    site: list[int]
    """The Construction Site: tile ids by position; position k costs k stones."""
    stones: list[int]
    cities: list[City]
    turn: int = 0
    """Actions applied so far."""

    def copy(self) -> AkropolisState:
        return AkropolisState(
            seed=self.seed,
            players=self.players,
            options=dict(self.options),
            stacks=[list(stack) for stack in self.stacks],
            site=list(self.site),
            stones=list(self.stones),
            cities=[city.copy() for city in self.cities],
            turn=self.turn,
        )
