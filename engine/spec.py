"""Everything Agon knows about one game, declared in the game's own package.

Each game package has a `spec.py` with `SPEC = GameSpec(...)`: its rules (the `Game`),
and what the rest of Agon shows or offers of it. `engine.registry` maps the game's id to
that `SPEC`; nothing outside the package names the game.

Optional capabilities are typed fields, None when a game lacks them: callers test the
field, never the game object's attributes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from engine.core import JSON, Game, JSONValue
from engine.rng import SplitMix64
from engine.spectator import Spectator, TextSpectator

StateT = TypeVar("StateT")


@runtime_checkable
class CompactLegalActions(Protocol):
    """Legal actions a game sends in a compact form of its own (e.g. tiles x placements)
    rather than as a list. Its spec's `legal_actions_from_json` expands that form again."""

    def compact(self) -> JSONValue: ...


@dataclass(frozen=True)
class ScoreBreakdown:
    """A finished match's score details as a table, for the match page."""

    headers: list[str]
    rows: list[list[str]]
    """One row per seat, as many cells as headers."""
    note: str = ""


@dataclass(frozen=True)
class GameSpec(Generic[StateT]):
    game: Game[StateT]
    """The rules."""
    blurb: str
    """A line about the game, for the pages that list games."""
    spectator_factory: Callable[[], Spectator] | None = None
    """Makes the game's spectator (engine.spectator); None shows its text render."""
    renderer: str | None = None
    """The web viewer's board renderer, web/games/<renderer>.js in agon_kit.viewer;
    None draws the spectator's `text`."""
    protocol_doc: Path | None = None
    """The game's section of the bot protocol (Markdown): its actions, observations and
    options. The served protocol page and the starter kit append it."""
    limits: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))
    """The game's own defaults for the sandbox's limits (by name, e.g. `turn_seconds`),
    over the sandbox's; a match may still override them."""
    score_breakdown: Callable[[Sequence[Mapping[str, Any]]], ScoreBreakdown] | None = None
    """The result's `details` (one dict per seat) as a table; None lays them out plainly."""
    legal_actions_from_json: Callable[[JSONValue], Sequence[JSON]] | None = None
    """Expands the compact legal actions the game sends (see CompactLegalActions); set
    whenever the game's `legal_actions` can return such a sequence."""
    state_from_observation: Callable[[JSONValue], StateT] | None = None
    """A state for lookahead built from what one player sees."""
    sample_state: Callable[[JSON, SplitMix64], StateT] | None = None
    """A state consistent with what one player sees (the observation of the player to
    move), its hidden parts drawn from the stream: a determinization, which the search
    bots (`engine.search`) sample once per tree. None for a game they cannot play."""
    score_json: Callable[[JSONValue], JSONValue] | None = None
    """`agon score`: scores positions given as JSON."""
    scores: Callable[[StateT], list[int]] | None = None
    """Every seat's score now, as `result` would give it if the game ended there, kept up
    to date by `apply`: the cheap evaluation for lookahead (`agon_bot.Lookahead`)."""
    score: Callable[[StateT, int], int] | None = None
    """One seat's score of `scores`, without working out the others'."""
    move_values: Callable[[StateT, Sequence[JSON]], Sequence[float]] | None = None
    """The game's greedy bot's value of each of the legal actions given (those of the
    state's player to move), the first of the best its choice: the search bots' guide
    (`engine.search.guided`), which orders their candidates and plays their playouts."""
    standing: Callable[[StateT], Sequence[float]] | None = None
    """Every seat's standing in an unfinished game, more being better, in the units of
    its scores: how the search bots judge a playout cut short. None: the scores."""

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def name(self) -> str:
        return self.game.name

    def spectator(self) -> Spectator:
        if self.spectator_factory is None:
            return TextSpectator(self.game)
        return self.spectator_factory()
