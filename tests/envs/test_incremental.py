"""The env's vectors are kept move by move (Akropolis's city planes, Megalopolis's board
rows, every game's kept arrays): property tests that, on every state of random games of
every game and player count, whichever seats are observed and when, each kept vector is
exactly the full rebuild, both from the state (a fresh encoding of a copy, which knows
nothing of the moves before) and from the JSON observation (the definition), and each
mask is exactly the legal set."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon_bot.envs import aec_env, make_encoding
from tests.envs.support import CASES, case_id

STEPS = {"akropolis": 60, "architekton": 80, "attika": 120, "megalopolis": 90}
"""Moves played per example (most of a game; Attika's are short decisions)."""

EXAMPLES = 4


def full_rebuilds(env: Any, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """`seat`'s vector made afresh: from a copy of the state by an encoding that has
    seen nothing before, and from the JSON observation."""
    fresh = make_encoding(env.game.id, env.players, env.match_options)
    from_state = fresh.encode_state(env.state.copy(), seat)
    from_json = env.encoding.encode_observation(env.game.observation(env.state, seat))
    return from_state, from_json


def play_and_compare(game: str, players: int, seed: int, watch: float, pick: int) -> int:
    """Play `seed`'s match with random legal moves, observing each seat with probability
    `watch` at each state (the seat to move always), comparing every observation with
    the full rebuilds; returns the observations compared."""
    env = aec_env(game, players)
    rng = random.Random(pick)
    env.reset(seed=seed)
    compared = 0
    for _ in range(STEPS[game]):
        mover = env.agent_selection
        if env.terminations[mover]:
            break
        legal = env.infos[mover]["legal_indices"]
        for agent in env.agents:
            if agent != mover and rng.random() >= watch:
                continue
            seat = env.agent_seats[agent]
            observed = env.observe(agent)
            from_state, from_json = full_rebuilds(env, seat)
            np.testing.assert_array_equal(from_state, from_json)
            np.testing.assert_array_equal(observed["observation"], from_json)
            marked = np.flatnonzero(observed["action_mask"]).tolist()
            assert marked == (sorted(legal.tolist()) if agent == mover else [])
            compared += 1
        env.step(int(legal[rng.randrange(len(legal))]))
    return compared


@pytest.mark.parametrize("case", CASES, ids=case_id)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    seed=st.integers(0, 2**31 - 1),
    watch=st.sampled_from([0.0, 0.3, 1.0]),
    pick=st.integers(0, 2**16),
)
def test_kept_vectors_equal_a_full_rebuild_on_every_state(
    case: tuple[str, int], seed: int, watch: float, pick: int
) -> None:
    game, players = case
    assert play_and_compare(game, players, seed, watch, pick) > 0


def test_a_megalopolis_state_from_elsewhere_is_read_whole() -> None:
    """A state the vectors have not followed (its caches replaced, as a test painting a
    position does, or a copy) is read whole: no row of the match before survives."""
    from engine.megalopolis.state import Caches  # the engine's own caches, for this case

    env = aec_env("megalopolis", 2)
    env.reset(seed=4)
    rng = random.Random(4)
    for _ in range(30):
        legal = env.infos[env.agent_selection]["legal_indices"]
        env.observe(env.agent_selection)
        env.step(int(legal[rng.randrange(len(legal))]))
    painted = env.state
    # A tile changed behind the caches' back: only a whole read sees it.
    code = min(painted.board)
    painted.board[code].tokens[0] += 1
    painted.caches = Caches()
    seat = env.agent_seats[env.agent_selection]
    observed = env.observe(env.agent_selection)["observation"]
    np.testing.assert_array_equal(observed, full_rebuilds(env, seat)[1])


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_megalopolis_table_change_is_reported_to_the_caches(players: int) -> None:
    """The kept rows trust `Caches.changed_cells`: over random games, every cell whose
    tile came, went, turned or had its tokens changed by a move is among those reported."""
    from engine.megalopolis.state import MegalopolisState  # the engine's state, for its board

    def table(state: MegalopolisState) -> dict[int, tuple[Any, ...]]:
        return {
            code: (tile.kind, tile.serial, tile.face_up, tuple(tile.tokens))
            for code, tile in state.board.items()
        }

    env = aec_env("megalopolis", players)
    rng = random.Random(players)
    reported_moves = 0
    for seed in range(3):
        env.reset(seed=seed)
        state = env.state
        state.caches.changed_cells = set()
        while not env.terminations[env.agent_selection]:
            before = table(state)
            legal = env.infos[env.agent_selection]["legal_indices"]
            env.step(int(legal[rng.randrange(len(legal))]))
            after = table(state)
            changed = {
                code for code in before.keys() | after.keys() if before.get(code) != after.get(code)
            }
            reported = state.caches.changed_cells
            assert reported is not None and changed <= reported, changed - (reported or set())
            reported_moves += bool(changed)
            reported.clear()
    assert reported_moves > 50


@pytest.mark.parametrize("players", [2, 4])
def test_an_akropolis_action_is_found_where_a_search_of_the_indices_finds_it(
    players: int,
) -> None:
    """`step` finds an index's action from what the index stands for
    (`AkropolisEncoding.legal_position`): over random games, every legal index is found
    at its place among the legal indices, and an index that is not legal (another
    rotation or site position of a legal one, or any index) is not found."""
    from agon_bot.envs.encoding import Encoding  # the plain search, for comparison

    env = aec_env("akropolis", players)
    encoding = env.encoding
    rng = random.Random(players)
    checked = 0
    for seed in range(2):
        env.reset(seed=seed)
        while not env.terminations[env.agent_selection]:
            legal, indices = env._legal, env._indices
            for position, index in enumerate(indices.tolist()):
                assert encoding.legal_position(legal, indices, index) == position
                assert legal[position] == env.action_json(index)
            taken = set(indices.tolist())
            near = [index + step for index in indices[:20].tolist() for step in (1, -1, 6 * 75)]
            others = [rng.randrange(-5, encoding.n_actions + 5) for _ in range(20)]
            for index in near + others:
                found = encoding.legal_position(legal, indices, index)
                assert found == Encoding.legal_position(encoding, legal, indices, index)
                assert (found >= 0) == (index in taken)
                checked += 1
            env.step(int(indices[rng.randrange(len(indices))]))
    assert checked > 1000
