"""A Gymnasium single-agent env: you play one seat, bots play the others.

The other seats are builtin bots (`builtin:random`, `builtin:greedy`), seeded from the
match seed and their seat exactly as `agon play` seeds them, or bot files, run as
`agon play` runs them (`sandbox="none"`: a plain process, as `agon play --sandbox none`;
or boxed, `sandbox="auto"`, "bwrap" or "docker"). A bot that faults is replaced by the
same stand-in the referee uses. So a match you play here with seed s, against the
same bots, is the match `agon play --seed s` would play if your seat made your moves.

An action that is not legal (the mask says which are) ends the match as a fault would
on the platform: terminated, reward -1, `info["illegal_action"]` the index.

Observations are new arrays each step (`aec_env` lends arrays it keeps instead).
`info["observation_json"]`, your seat's observation, is built when first read, or at
the latest when the env next moves, so that an info kept stays readable.
"""

from __future__ import annotations

import contextlib
import copy
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from agon_bot.envs.aec import AgonEnv
from agon_bot.envs.info import LazyInfo
from engine.bots import BUILTIN_BOTS, builtin_bot
from engine.core import IllegalAction
from engine.match import as_json_value, fallback_bot, observation_for, state_options
from engine.players import BotFault, Player


class FileBots:
    """Bot files as `agon play` runs them, each in a box of the chosen backend; all of
    them are closed (and their folders removed) by `close`."""

    def __init__(self, sandbox: str, limits: Mapping[str, Any] | None) -> None:
        self.sandbox = sandbox
        self.limits = dict(limits or {})
        self._open = contextlib.ExitStack()

    def open(self, path: Path, game_id: str, seat: int) -> Player:
        # The sandbox only for a boxed bot file: an environment against builtins starts
        # without it.
        from sandbox.backends import BoxSpec, get_backend
        from sandbox.limits import limits_for
        from sandbox.packages import unpack_bot
        from sandbox.referee import BoxBot

        match_limits = limits_for(game_id, self.limits)
        folder = Path(self._open.enter_context(tempfile.TemporaryDirectory()))
        folder.chmod(0o755)
        unpack_bot(path.read_bytes(), path.name, folder)
        box = get_backend(self.sandbox).open(BoxSpec(folder, match_limits, label=f"seat{seat}"))
        bot = BoxBot(box, match_limits)
        self._open.callback(bot.close)
        return bot

    def close(self) -> None:
        self._open.close()
        self._open = contextlib.ExitStack()


class AgonGymEnv(gymnasium.Env[dict[str, np.ndarray], np.int64]):
    """One seat of a game against bots; see the module's docstring."""

    metadata = {"render_modes": ["ansi", "html"], "render_fps": 1}  # noqa: RUF012 - read by gymnasium

    def __init__(
        self,
        game: str,
        players: int = 2,
        opponents: str | Sequence[str] | None = None,
        *,
        seat: int = 0,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        sandbox: str = "none",
        limits: Mapping[str, Any] | None = None,
    ) -> None:
        # New arrays each step, as Gymnasium's own envs give: a single-seat loop often
        # keeps its observations (a trajectory list); the AEC env lends its kept ones.
        self.aec = AgonEnv(game, players, options, render_mode, fresh_observations=True)
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat}: a {players}-player game has seats 0..{players - 1}")
        if opponents is None or isinstance(opponents, str):
            opponents = [opponents or "builtin:random"] * (players - 1)
        if len(opponents) != players - 1:
            raise ValueError(
                f"{players} players need {players - 1} opponents, not {len(opponents)}"
            )
        self.opponents = list(opponents)
        for spec in self.opponents:
            name = spec.removeprefix("builtin:")
            if spec.startswith("builtin:") and name not in BUILTIN_BOTS:
                raise ValueError(
                    f"unknown builtin bot {spec!r}; builtin bots: {', '.join(BUILTIN_BOTS)}"
                )
            if not spec.startswith("builtin:") and not Path(spec).is_file():
                raise ValueError(f"bot {spec!r} is neither a file nor builtin:random/greedy")
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.encoding = self.aec.encoding
        self._files = FileBots(sandbox, limits)
        self._handed: LazyInfo | None = None
        self.bots: dict[int, Player] = {}
        self.faults: list[dict[str, Any]] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new match: `seed` is the match seed (None: drawn from `np_random`)."""
        self._settle_info()
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**31))
        self.aec.reset(seed=seed)
        self._files.close()
        self.bots, self.faults = {}, []
        self._stand_ins: dict[int, Player] = {}
        game, state = self.aec.game, self.aec.state
        others = [s for s in range(self.aec.players) if s != self.seat]
        for seat, spec in zip(others, self.opponents, strict=True):
            if spec.startswith("builtin:"):
                bot = builtin_bot(spec.removeprefix("builtin:"), game.id, seed, seat)
            else:
                bot = self._files.open(Path(spec), game.id, seat)
            self.bots[seat] = bot
        info = {"game": game.id, "players": self.aec.players, "options": state_options(game, state)}
        for seat, bot in self.bots.items():
            with contextlib.suppress(Exception):  # as the referee: a failed notice faults later
                bot.start({**info, "player": seat})
        self._play_others()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        self._settle_info()
        aec = self.aec
        if aec.result is not None:
            raise RuntimeError("the match is over: reset() starts the next")
        try:
            move = aec.action_json(int(action))
        except ValueError:
            observation = self._observe()
            # The position is unchanged: what info holds is copied, not handed out twice.
            info = {**copy.deepcopy(self._info()), "illegal_action": int(action)}
            self._end_bots()
            aec.result = {"illegal_action": int(action)}
            return observation, -1.0, True, False, info
        aec.apply_json(move)
        self._play_others()
        over = aec.result is not None
        reward = float(aec.rewards.get(self.agent, 0.0)) if over else 0.0
        return self._observe(), reward, over, False, self._info()

    def _play_others(self) -> None:
        """The other seats' moves, until it is this seat's turn or the match is over."""
        aec = self.aec
        game, state = aec.game, aec.state
        while aec.result is None and aec.agent_selection != self.agent:
            seat = aec.agent_seats[aec.agent_selection]
            legal = aec.infos[aec.agent_selection]["legal_actions"]
            bot = self._stand_ins.get(seat) or self.bots[seat]
            try:
                observation = observation_for(game, state, seat, bot)
                move = as_json_value(bot.act(observation, legal))
                aec.apply_json(move)
            except (BotFault, IllegalAction, TypeError, ValueError, RecursionError) as error:
                if seat in self._stand_ins:
                    raise
                kind = error.kind if isinstance(error, BotFault) else type(error).__name__
                self.faults.append({"seat": seat, "kind": kind, "detail": str(error)})
                self._stand_ins[seat] = fallback_bot(aec.seed or 0, seat)
        if aec.result is not None:
            self._end_bots()

    def _end_bots(self) -> None:
        result = self.aec.result or {}
        for bot in self.bots.values():
            with contextlib.suppress(Exception):
                bot.end(result)
        self._files.close()

    def _observe(self) -> dict[str, np.ndarray]:
        return self.aec.observe(self.agent)

    def _info(self) -> dict[str, Any]:
        kept = self.aec.infos.get(self.agent)
        info = kept.copy() if isinstance(kept, LazyInfo) else LazyInfo(kept)
        if "observation_json" not in info:
            info.defer("observation_json", self.aec.observation_json_now(self.agent))
        info["faults"] = list(self.faults)
        self._handed = info
        return info

    def _settle_info(self) -> None:
        """Build what the last info still defers, before the position changes: a
        Gymnasium user may keep the infos of every step and read them later (the AEC env,
        stepped once per seat, refuses that instead: `StaleInfo`)."""
        handed, self._handed = self._handed, None
        if handed is not None:
            handed.build_pending()

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self._files.close()
        self.aec.close()
