"""What the platform, its pages, the API and `agon tournament` need of a tournament format.

A format is a class with the names of `Format` (each of ours is a frozen dataclass), in a
module of this package, registered by one line in `competition.formats.registry`. From
that line on it is offered by the web form, the API and the command line, built from a
tournament's stored settings (`Format.from_settings`), bounded before the tournament is
made (`most_games`), played (`next_games`), ranked (`standings`) and shown: its progress,
and beside its standings the picture it names (`Picture`), which says what more it
answers (`Bracketed`, `GauntletTable`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, ClassVar, Protocol, cast

from competition.formats.core import Result, ScheduledGame
from competition.formats.standings import Standing

if TYPE_CHECKING:
    from competition.formats.knockout import Bracket, Tie
    from competition.sprt import EloEstimate


class Picture(Enum):
    """What a format's pages and `agon tournament` draw beside its standings."""

    NONE = "none"
    CROSS_TABLE = "cross-table"
    """Every bot's points against every other (a round robin: everybody meets)."""
    BRACKET = "bracket"
    """The ties and who went through them: the format is `Bracketed`."""
    GAUNTLET = "gauntlet"
    """The first entrant's Elo against each other one: the format is a `GauntletTable`."""


@dataclass(frozen=True)
class Settings:
    """A tournament's settings as it stores them, for `entrants` bots."""

    entrants: int
    seed: int
    players: int = 2
    """Bots at each table."""
    meetings: int = 1
    """Meetings each table plays: a meeting is one game per rotation of the seats."""
    rounds: int | None = None
    """The rounds asked for, for a format that `TAKES_ROUNDS` (None: its default)."""


@dataclass(frozen=True)
class Progress:
    decided: int
    total: int | None
    """None while the format cannot tell."""
    unit: str
    """What is counted: "games", or "ties" for a format whose games depend on tie-breaks."""


class Format(Protocol):
    LABEL: ClassVar[str]
    """Its name for people ("Round Robin"); the registry's key is its name for programs."""
    PICTURE: ClassVar[Picture]
    TWO_PLAYERS: ClassVar[bool]
    """Played by two bots a game, whatever the game's table."""
    TAKES_ROUNDS: ClassVar[bool]
    """Its number of rounds is a setting (`Settings.rounds`)."""

    @classmethod
    def from_settings(cls, settings: Settings) -> Format:
        """The format for these settings; ValueError if it cannot be played so."""
        ...

    def next_games(self, results: Sequence[Result]) -> list[ScheduledGame]:
        """The games to play next after `results` (those of the games asked for so far);
        none once the event is over."""
        ...

    def standings(self, results: Sequence[Result]) -> list[Standing]: ...

    def most_games(self) -> int:
        """An upper bound on the games it plays, byes left out: what a tournament is
        bounded by before it is made."""
        ...

    def round_count(self) -> int | None:
        """The rounds it will have, when its settings fix them (None: the results do)."""
        ...

    def progress(self, results: Sequence[Result]) -> Progress: ...


class Bracketed(Format, Protocol):
    """A format whose `PICTURE` is a bracket: ties, walked as far as the results go."""

    @property
    def players(self) -> int: ...

    def run(self, results: Sequence[Result]) -> Bracket: ...

    def outline(self) -> Bracket:
        """The whole bracket, every table in place, whoever goes through."""
        ...

    def ties(self, results: Sequence[Result]) -> list[Tie]: ...


class GauntletTable(Format, Protocol):
    """A format whose `PICTURE` is a gauntlet's table: entrant 0 against each other one."""

    def pentanomials(self, results: Sequence[Result]) -> dict[int, list[int]]: ...

    def elo_by_opponent(self, results: Sequence[Result]) -> dict[int, EloEstimate]: ...

    def performance(self, results: Sequence[Result]) -> EloEstimate: ...


def bracket_of(event: Format) -> Bracketed | None:
    """The format as its bracket's source, if its picture is one."""
    return cast("Bracketed", event) if event.PICTURE is Picture.BRACKET else None


def gauntlet_of(event: Format) -> GauntletTable | None:
    """The format as its gauntlet table's source, if its picture is one."""
    return cast("GauntletTable", event) if event.PICTURE is Picture.GAUNTLET else None


def games_progress(results: Sequence[Result], total: int | None) -> Progress:
    """Progress counted in games (byes left out)."""
    return Progress(sum(not result.game.is_bye for result in results), total, "games")
