"""The Akropolis game state: the stacks, the Construction Site, stones and cities."""

from __future__ import annotations

from dataclasses import dataclass, field

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
    shared_cities: int = field(default=0, compare=False, repr=False)
    """Bit p is set while `cities[p]` is shared with a copy of the state: it is copied
    before it changes (`city_to_change`), so a copy costs no copy of the cities."""
    stack_tiles_text: tuple[int, str] | None = field(default=None, compare=False, repr=False)
    """(stacks left, the tiles in them sorted as JSON text), kept by `observation`: the
    stacks change only by drawing the first one whole."""

    def copy(self) -> AkropolisState:
        everyone = (1 << len(self.cities)) - 1
        self.shared_cities = everyone
        return AkropolisState(
            seed=self.seed,
            players=self.players,
            options=dict(self.options),
            stacks=[list(stack) for stack in self.stacks],
            site=list(self.site),
            stones=list(self.stones),
            cities=list(self.cities),
            turn=self.turn,
            shared_cities=everyone,
            stack_tiles_text=self.stack_tiles_text,
        )

    def city_to_change(self, player: int) -> City:
        """The player's city, copied first if another state shares it."""
        city = self.cities[player]
        if self.shared_cities >> player & 1:
            city = self.cities[player] = city.copy()
            self.shared_cities &= ~(1 << player)
        return city
