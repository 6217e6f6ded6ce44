"""The Akropolis game state: the stacks, the Construction Site, stones and cities."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.akropolis import native
from engine.akropolis.city import City
from engine.akropolis.scoring import VARIANTS


@dataclass
class AkropolisState:
    seed: int
    players: int
    options: dict[str, bool]
    """Set up once and never changed afterwards: copies of the state share it."""
    stacks: list[list[int]]
    """Face-down stacks of tile ids, the next one to reveal first. Hidden from players.
    A stack is only ever drawn whole (copies of the state share each one)."""
    site: list[int]
    """The Construction Site: tile ids by position; position k costs k stones."""
    stones: list[int]
    cities: list[City]
    turn: int = 0
    """Actions applied so far."""
    variants: tuple[str, ...] = field(init=False, compare=False, repr=False)
    """The scoring variants the options turn on, in `scoring.VARIANTS` order."""
    shared_cities: int = field(default=0, compare=False, repr=False)
    """Bit p is set while `cities[p]` is shared with a copy of the state: it is copied
    before it changes (`city_to_change`), so a copy costs no copy of the cities."""

    def __post_init__(self) -> None:
        self.variants = tuple(name for name in VARIANTS if self.options.get(name))

    def copy(self) -> AkropolisState:
        """A copy to change apart from this state. The options and each stack (never
        changed, a stack is only ever drawn whole) are shared, so are the cities until
        one of the two states changes one (`city_to_change`)."""
        core = native.CORE
        if core is not None:
            twin: AkropolisState = core.copy_state(self)  # the same, in C
            return twin
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
