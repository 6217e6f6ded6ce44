"""The legal actions of a position: a read-only sequence of JSON actions, made when read.

Legal actions can be many (Akropolis: every affordable tile with every placement), so a
game keeps them in a small inner form and builds each JSON object only when it is read.
`LegalActions` is the sequence around that form, the same for every game: indexing
(negative indices and slices too), iteration and membership. A game says how many
actions there are, how to build the index-th one, how to parse an action and whether a
parsed one is legal; and, where the bot protocol sends a compact form, `compact()`.
"""

from __future__ import annotations

# collections.abc's own home: `collections` (with `operator`, `keyword`, `reprlib`, ...)
# would cost a bot's first turn, which expands its legal actions here, ~1.5 ms.
from _collections_abc import Iterator, Sequence
from abc import abstractmethod

from engine.errors import IllegalAction

TYPE_CHECKING = False  # not typing's: a bot's start imports no `typing` (agon_bot.wire)
if TYPE_CHECKING:
    from typing import Any, TypeAlias, overload

    Action: TypeAlias = dict[str, Any]
else:
    Action = dict


class LegalActions(Sequence[Action]):
    """The legal actions in a fixed order, each built as a JSON object when read."""

    __slots__ = ()

    @abstractmethod
    def __len__(self) -> int: ...

    @abstractmethod
    def action(self, index: int) -> Action:
        """The index-th action, 0 <= index < len(self)."""

    @abstractmethod
    def parse(self, action: object) -> Any:
        """The inner form of a well-formed action; IllegalAction if it is not one."""

    @abstractmethod
    def contains(self, parsed: Any) -> bool:
        """Whether the action `parse` gave is among these."""

    if TYPE_CHECKING:  # no `typing.overload` at run time

        @overload
        def __getitem__(self, index: int) -> Action: ...

        @overload
        def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [self.action(i) for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("legal action index out of range")
        return self.action(index)

    def __iter__(self) -> Iterator[Action]:
        return map(self.action, range(len(self)))

    def __contains__(self, action: object) -> bool:
        try:
            parsed = self.parse(action)
        except IllegalAction:
            return False
        return self.contains(parsed)
