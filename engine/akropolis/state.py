"""The Akropolis game state: the stacks, the Construction Site, stones and cities."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.akropolis.city import City


@dataclass
class AkropolisState:
    seed: int
    players: int
    options: dict[str, bool]
    """Set up once and never changed afterwards: copies of the state share it."""
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
    variants: tuple[str, ...] | None = field(default=None, compare=False, repr=False)
    """The scoring variants the options turn on, kept by `rules.variants_of`."""

    def copy(self) -> AkropolisState:
        """A copy to change apart from this state. The options and each stack (never
        changed, a stack is only ever drawn whole) are shared, so are the cities until
        one of the two states changes one (`city_to_change`)."""
        everyone = (1 << len(self.cities)) - 1
        self.shared_cities = everyone
        fields = self.__dict__.copy()
        fields["stacks"] = list(self.stacks)
        fields["site"] = list(self.site)
        fields["stones"] = list(self.stones)
        fields["cities"] = list(self.cities)
        twin = object.__new__(AkropolisState)
        twin.__dict__ = fields
        return twin

    def city_to_change(self, player: int) -> City:
        """The player's city, copied first if another state shares it."""
        city = self.cities[player]
        if self.shared_cities >> player & 1:
            city = self.cities[player] = city.copy()
            self.shared_cities &= ~(1 << player)
        return city
