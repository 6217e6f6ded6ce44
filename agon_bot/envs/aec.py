"""The PettingZoo AEC environment of any game: one agent per seat, `player_0`...

Each agent observes `{"observation": float32 vector, "action_mask": int8 vector}` (the
game's encoding, docs/environments.md) and acts with an action index. `info` holds what
a bot reads instead: `observation_json` (the game's own observation for that seat, built
only if read, before the env moves on: `LazyInfo`), and, for the agent to move,
`legal_actions` (the legal actions as JSON, in the engine's order) with `legal_indices`
(their action indices, in the same order). The vectors and the mask are read from the
engine's state directly (`Encoding.encode_state`), without the JSON. The two arrays are
the env's own, one pair per agent, rewritten in place where the position changed when
that agent is next observed: copy one to keep it longer, or make the env with
`fresh_observations=True` (new arrays each time; PettingZoo's and Gymnasium's checkers
compare observations as they come, and pass either way).

`reset(seed=s)` deals what `agon play --seed s` deals (the engine's `new_state(s, ...)`);
rewards come at the end only: +1 for each other seat ranked below you, -1 for each ranked
above, averaged over the other seats (1 alone first, -1 alone last, 0 all tied).
`render()` is the game's text ("ansi") or the viewer's page of the position ("html",
`agon_bot.envs.html`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from agon_bot.envs.encoding import Encoding
from agon_bot.envs.games import make_encoding
from agon_bot.envs.info import LazyInfo, StaleInfo
from engine.core import JSON
from engine.registry import get_game


class LegalActions(Sequence[JSON]):
    """The legal actions of one position as JSON, expanded only as read; equal to
    another when they hold the same actions."""

    def __init__(self, actions: Sequence[JSON]) -> None:
        self._actions = actions

    def __len__(self) -> int:
        return len(self._actions)

    def __getitem__(self, index: Any) -> Any:
        return self._actions[index]

    def __iter__(self) -> Iterator[JSON]:
        return iter(self._actions)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LegalActions):
            return NotImplemented
        return len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LegalActions({len(self)} actions)"


def outcome_rewards(ranks: Sequence[int]) -> list[float]:
    """Per seat: (seats ranked below - seats ranked above) / (other seats)."""
    others = max(1, len(ranks) - 1)
    return [sum((mine < theirs) - (mine > theirs) for theirs in ranks) / others for mine in ranks]


class AgonEnv(AECEnv):  # type: ignore[misc]
    """One game for a fixed player count and options; see the module's docstring."""

    metadata = {  # noqa: RUF012 - the libraries read it as a class attribute
        "render_modes": ["ansi", "html"],
        "render_fps": 1,
        "name": "agon_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        *,
        fresh_observations: bool = False,
    ) -> None:
        super().__init__()
        self.fresh_observations = fresh_observations
        self.game = get_game(game)
        if players not in self.game.player_counts:
            counts = ", ".join(map(str, self.game.player_counts))
            raise ValueError(f"{self.game.name} is played by {counts} players, not {players}")
        if render_mode not in (None, "ansi", "html"):
            raise ValueError(
                f"render_mode {render_mode!r}: 'ansi' (text) or 'html' (the viewer's page)"
            )
        self.render_mode = render_mode
        self.players = players
        self.match_options = dict(options or {})
        self.encoding: Encoding = make_encoding(game, players, self.match_options)
        # A game whose encoding reads the state directly skips the JSON; the others
        # build it once a turn for both the indices and the vector.
        kind = type(self.encoding)
        self._fast_vectors = kind.encode_state is not Encoding.encode_state
        self._fast_indices = kind.state_legal_indices is not Encoding.state_legal_indices
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agent_seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation_space = spaces.Dict(
            {
                "observation": self.encoding.observation_space(),
                "action_mask": spaces.Box(0, 1, (self.encoding.n_actions,), np.int8),
            }
        )
        action_space = spaces.Discrete(self.encoding.n_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space)
        self._seeds: np.random.Generator | None = None
        """The stream `reset()` without a seed draws from, made when first drawn from
        (a generator costs more than a short game's steps): seeded by the last seed given
        (`_seeded_by`), else by the system."""
        self._seeded_by: int | None = None
        n_actions = self.encoding.n_actions
        self._masks: list[list[Any]] = [
            [np.zeros(n_actions, np.int8), None] for _ in range(players)
        ]
        """Per seat: its mask array and the indices last set in it (None: none)."""
        self._vectors = [self.encoding.vector_buffer() for _ in range(players)]
        """Per seat: what `encode_state_into` keeps between observations."""
        self.state: Any = None
        self.seed: int | None = None
        self._episode = 0
        """Matches dealt so far: an info's deferred JSON knows the match it is of."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the episode ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match: `seed` is the match seed (None: drawn from the env's own stream,
        itself seeded by the last seed given). `options` is accepted for the API and
        unused: the game's options are fixed when the env is made."""
        if seed is not None:
            self._seeds, self._seeded_by = None, int(seed)
        else:
            if self._seeds is None:
                self._seeds = np.random.default_rng(self._seeded_by)
            seed = int(self._seeds.integers(0, 2**31))
        self.seed = int(seed)
        self.state = self.game.new_state(self.seed, self.players, self.match_options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.result: dict[str, Any] | None = None
        self.moves: list[JSON] = []
        """The moves played so far, as action JSON (what a replay records)."""
        self._observed: dict[str, tuple[int, dict[str, Any]]] = {}
        self._turn = 0
        self._episode += 1
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._next_turn()

    def _next_turn(self) -> None:
        """Make the seat to move the selected agent, with its legal actions in `info`."""
        game, state = self.game, self.state
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        if self._fast_indices:
            indices = self.encoding.state_legal_indices(state, legal)
        else:
            observation = self._observation_json(self.possible_agents[seat])
            indices = self.encoding.legal_indices(legal, observation)
        self._legal, self._indices = legal, indices
        infos = self.infos
        infos[self.agent_selection] = {}  # the agent that moved last: no turn now
        agent = self.agent_selection = self.possible_agents[seat]
        infos[agent] = LazyInfo.made(
            {"legal_actions": LegalActions(legal), "legal_indices": indices},
            {"observation_json": self.observation_json_now(agent)},
        )

    def observation_json_now(self, agent: str) -> Any:
        """A function that returns `agent`'s observation JSON of the position now, and
        refuses (StaleInfo) once the env has moved on."""
        when = (self._episode, self._turn)

        def build() -> dict[str, Any]:
            if (self._episode, self._turn) != when:
                raise StaleInfo(
                    f"info['observation_json'] of {agent} read after the env moved on "
                    "(read it before the next step or reset)"
                )
            return self._observation_json(agent)

        return build

    def _observation_json(self, agent: str) -> dict[str, Any]:
        kept = self._observed.get(agent)
        if kept is not None and kept[0] == self._turn:
            return kept[1]
        observation: dict[str, Any] = self.game.observation(self.state, self.agent_seats[agent])
        self._observed[agent] = (self._turn, observation)
        return observation

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """`agent`'s observation and action mask now: arrays the env keeps, one pair per
        agent, rewritten the next time that agent is observed (`fresh_observations`:
        new arrays each time); see the module's docstring."""
        seat = self.agent_seats[agent]
        kept = self._masks[seat]
        mask, marked = kept
        if marked is not None:
            mask[marked] = 0  # only the entries set last time: the rest are still 0
        if agent == self.agent_selection and self.result is None:
            marked = self._indices
            mask[marked] = 1
        else:
            marked = None
        kept[1] = marked
        if self._fast_vectors:
            vector = self.encoding.encode_state_into(self.state, seat, self._vectors[seat])
        else:
            vector = self.encoding.encode_observation(self._observation_json(agent))
        if self.fresh_observations:
            return {"observation": vector.copy(), "action_mask": mask.copy()}
        return {"observation": vector, "action_mask": mask}

    def action_json(self, index: int) -> JSON:
        """The legal action an index stands for now; ValueError if it is not legal."""
        index = int(index)
        found = self.encoding.legal_position(self._legal, self._indices, index)
        if found < 0:
            raise ValueError(
                f"action {index} is not legal for {self.agent_selection} now "
                "(the action_mask marks the legal ones)"
            )
        return self._legal[found]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.apply_json(self.action_json(int(action)))

    def apply_json(self, move: JSON) -> None:
        """Play the selected agent's move given as its action JSON (the game checks it:
        IllegalAction if it is not legal)."""
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(self.state, move)
        self.moves.append(move)
        self.encoding.moved(self.agent_seats[agent], move)
        self._turn += 1
        if self.game.is_over(self.state):
            self._finish()
            self._accumulate_rewards()
        else:
            # Rewards come at the end only: nothing to accumulate before it.
            self._next_turn()

    def _finish(self) -> None:
        result = self.game.result(self.state).to_json()
        self.result = result
        rewards = outcome_rewards(result["ranks"])
        self.rewards = {agent: rewards[self.agent_seats[agent]] for agent in self.agents}
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos = {}
        for agent in self.agents:
            info = self.infos[agent] = LazyInfo({"result": result})
            info.defer("observation_json", self.observation_json_now(agent))
        # The seats then leave in seat order, each on its `step(None)`.
        self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        """With render_mode "ansi", the game's text; "html", the viewer's page of the position
        (`agon_bot.envs.html`); None without a render mode or before `reset`."""
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "html":
            from agon_bot.envs.html import position_page  # the viewer only when drawn

            return position_page(
                self.game.id,
                int(self.seed or 0),
                self.possible_agents,
                self.match_options,
                self.moves,
                self.result,
                self.state,
            )
        text: str = self.game.render_text(self.state)
        return text

    def close(self) -> None:
        self.state = None
