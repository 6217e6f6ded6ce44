"""Training environments for every game: PettingZoo (all seats) and Gymnasium (one seat
against bots). They need the kit's `envs` extra (numpy, gymnasium, pettingzoo), which
`agon_bot` itself never imports: bots start without them.

    from agon_bot.envs import aec_env, gym_env

    env = aec_env("akropolis", players=2)          # PettingZoo AEC, agents player_0..
    env = gym_env("akropolis", 2, "builtin:greedy")  # Gymnasium, you are seat 0

Observations are `{"observation": float32 vector, "action_mask": int8 vector}`, read
from the engine's state without the game's JSON; the JSON observation (built when read)
and the legal actions are in `info`; docs/environments.md describes each game's
encoding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.lazy import lazy_names

if TYPE_CHECKING:
    from agon_bot.envs.aec import AgonEnv, outcome_rewards
    from agon_bot.envs.encoding import Encoding, Segment
    from agon_bot.envs.games import ENCODINGS, make_encoding
    from agon_bot.envs.gym import AgonGymEnv

# Each name loads its module when first read: a bot in a box, which has NumPy but neither
# Gymnasium nor PettingZoo, imports an encoding (`agon_bot.envs.games.make_encoding`)
# without them (examples/imitation plays that way).
__getattr__ = lazy_names(
    __name__,
    {
        "AgonEnv": "agon_bot.envs.aec",
        "outcome_rewards": "agon_bot.envs.aec",
        "Encoding": "agon_bot.envs.encoding",
        "Segment": "agon_bot.envs.encoding",
        "ENCODINGS": "agon_bot.envs.games",
        "make_encoding": "agon_bot.envs.games",
        "AgonGymEnv": "agon_bot.envs.gym",
    },
)


def aec_env(
    game: str,
    players: int = 2,
    options: Mapping[str, Any] | None = None,
    *,
    render_mode: str | None = None,
    fresh_observations: bool = False,
) -> AgonEnv:
    """The PettingZoo AEC environment of `game` for `players` seats and match options
    (`fresh_observations`: new arrays at each `observe`, not the env's kept ones)."""
    from agon_bot.envs.aec import AgonEnv  # PettingZoo's, on first use (see above)

    return AgonEnv(game, players, options, render_mode, fresh_observations=fresh_observations)


def gym_env(
    game: str,
    players: int = 2,
    opponents: str | Sequence[str] | None = None,
    **kwargs: Any,
) -> AgonGymEnv:
    """A Gymnasium env: seat `seat` (default 0) of `game` against `opponents` (one spec
    for every other seat, or one each: `builtin:random` (the default), `builtin:greedy`
    or a bot file); keywords `seat`, `options`, `render_mode`, `sandbox`, `limits`."""
    from agon_bot.envs.gym import AgonGymEnv  # Gymnasium's, on first use (see above)

    return AgonGymEnv(game, players, opponents, **kwargs)


__all__ = [
    "ENCODINGS",
    "AgonEnv",
    "AgonGymEnv",
    "Encoding",
    "Segment",
    "aec_env",
    "gym_env",
    "make_encoding",
    "outcome_rewards",
]
