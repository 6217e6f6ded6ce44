"""The checks every game's `new_state` makes before it deals: players, seed, options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from engine.core import JSON, InvalidOptions, OptionSpec, normalize_options

SEED_LIMIT = 2**64
"""Seeds are integers in [0, SEED_LIMIT): what `rng.SplitMix64` takes."""


class SetUp(Protocol):
    """What the checks need to know of a game."""

    name: str
    player_counts: tuple[int, ...]
    options: tuple[OptionSpec, ...]


def checked_options(
    game: SetUp, seed: object, players: object, options: Mapping[str, JSON]
) -> dict[str, bool]:
    """The options with their defaults filled in, once the player count (an int, not a
    bool or 2.0) and the seed are known to be fine; InvalidOptions otherwise."""
    counts = game.player_counts
    if not isinstance(players, int) or isinstance(players, bool) or players not in counts:
        allowed = f"exactly {counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
        raise InvalidOptions(f"{game.name} is for {allowed} players, not {players!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
        raise InvalidOptions(f"the seed must be an integer in [0, 2**64), not {seed!r}")
    return normalize_options(game.options, players, options)
