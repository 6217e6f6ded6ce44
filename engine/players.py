"""What a player is to the referee: a `Player` that picks actions, and the faults it can make.

A `Player` is a seat's decision maker as the engine's referee (`engine.match`) drives it:
a builtin bot, a boxed bot program (the sandbox's `BoxBot`), a test's scripted player.
It is not a bot author's base class (`agon_bot.Bot`) nor an uploaded bot (the platform's
`agon.bots.models.Bot`)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import JSON
from engine.rng import SplitMix64

FAULT_KINDS = ("timeout", "illegal_action", "bad_output", "crash", "memory", "output_limit")


class Player:
    """One seat's player. `act` returns one of `legal_actions` (any equal JSON value will do)."""

    takes_encoded = False
    """True for a bot that sends its observation on as JSON text without reading it (a
    boxed bot): the match may then give it an `EncodedText` in place of the dict."""

    def start(self, info: dict[str, JSON]) -> None:
        """Called once before the first turn with the match's public setup."""

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> JSON:
        raise NotImplementedError

    def end(self, result: dict[str, JSON]) -> None:
        """Called once when the match is over."""


class RandomBot(Player):
    """Uniform over the legal actions, from its own seeded stream."""

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> JSON:
        return legal_actions[self.rng.below(len(legal_actions))]


class BotFault(Exception):
    """Raised by a bot adapter when its program fails; `kind` is one of FAULT_KINDS."""

    def __init__(self, kind: str, detail: str) -> None:
        if kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {kind!r}")
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail
