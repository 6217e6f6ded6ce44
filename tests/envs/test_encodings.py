"""Every legal action is representable, for every game and player count: over whole
random games, each legal action of each position encodes to an index inside the action
space that decodes back to the same action, distinct actions get distinct indices, and
the env's mask holds exactly those. Every observation lies inside its space, and what
the env reads from the engine's state (`encode_state`, `state_legal_indices`, each
game's fast path) equals what the encoding makes of the observation JSON."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from agon_bot.envs import aec_env, make_encoding
from engine.architekton.state import Decision
from engine.attika.actions import LegalActions as AttikaLegalActions
from engine.registry import get_game
from tests.envs.support import CASES, case_id

GAMES_PER_CASE = {"akropolis": 6, "architekton": 20, "attika": 4, "megalopolis": 4}
"""Whole random games per game and player count (a few seconds each)."""


def check_position(encoding: Any, observation: Any, legal: Any) -> int:
    indices = encoding.legal_indices(legal, observation)
    assert len(indices) == len(legal) == len(set(indices.tolist())), "indices not distinct"
    assert indices.min() >= 0 and indices.max() < encoding.n_actions
    for index, action in zip(indices.tolist(), legal, strict=True):
        assert encoding.encode_action(action, observation) == index, action
        assert encoding.decode_action(index, observation) == action, (index, action)
    return len(legal)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_legal_action_has_its_own_index_and_decodes_back(case: tuple[str, int]) -> None:
    game_id, players = case
    run_games(game_id, players, {}, GAMES_PER_CASE[game_id])


@pytest.mark.parametrize("players", [2, 3])
def test_the_long_akropolis_game_fits_its_larger_grid(players: int) -> None:
    run_games("akropolis", players, {"all_tiles": True}, 2)


def run_games(game_id: str, players: int, options: dict[str, Any], games: int) -> None:
    game = get_game(game_id)
    encoding = make_encoding(game_id, players, options)
    space = encoding.observation_space()
    rng = random.Random(f"{game_id}/{players}")
    positions = actions = 0
    for seed in range(games):
        state = game.new_state(seed, players, options)
        while not game.is_over(state):
            seat = game.current_player(state)
            observation = game.observation(state, seat)
            legal = game.legal_actions(state)
            actions += check_position(encoding, observation, legal)
            fast = encoding.state_legal_indices(state, game.legal_actions(state))
            assert fast.tolist() == encoding.legal_indices(legal, observation).tolist()
            positions += 1
            vector = encoding.encode_observation(observation)
            assert space.contains(vector)
            np.testing.assert_array_equal(encoding.encode_state(state, seat), vector)
            if positions % 5 == 0:  # and from the other seats' side too
                other_seat = (seat + 1) % players
                other = encoding.encode_observation(game.observation(state, other_seat))
                assert space.contains(other)
                np.testing.assert_array_equal(encoding.encode_state(state, other_seat), other)
            game.apply(state, legal[rng.randrange(len(legal))])
    final = game.observation(state, 0)
    np.testing.assert_array_equal(
        encoding.encode_state(state, 0), encoding.encode_observation(final)
    )
    print(
        f"{game_id} {players}p {options}: {games} games, {positions} positions, {actions} actions"
    )


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_mask_marks_exactly_the_legal_actions(case: tuple[str, int]) -> None:
    """And the env's vectors, which it reads from the state move by move, are the JSON's."""
    game, players = case
    steps = 200 if game == "akropolis" else 40
    env = aec_env(game, players)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(steps):
        agent = env.agent_selection
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            break
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (env.encoding.n_actions,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(info["legal_indices"].tolist())
        assert len(info["legal_actions"]) == int(mask.sum())
        encode = env.encoding.encode_observation
        np.testing.assert_array_equal(observation["observation"], encode(info["observation_json"]))
        for other in env.agents:
            if other != agent:
                seen = env.observe(other)
                assert not seen["action_mask"].any()
                json = env.game.observation(env.state, env.agent_seats[other])
                np.testing.assert_array_equal(seen["observation"], encode(json))
        index = int(rng.choice(np.flatnonzero(mask)))
        assert env.action_json(index) == env.encoding.decode_action(index, info["observation_json"])
        env.step(index)


def test_an_index_that_is_not_legal_is_refused() -> None:
    env = aec_env("architekton")
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)


def test_an_architekton_move_house_decision_is_kind_1_and_remove_house_kind_2() -> None:
    game = get_game("architekton")
    encoding = make_encoding("architekton", 2, {})
    state = game.new_state(5, 2, {})
    for _ in range(12):
        game.apply(state, game.legal_actions(state)[0])
    building = next(iter(state.buildings))
    for kind, code in (("move_house", 1.0), ("remove_house", 2.0)):
        # A decision painted on a real position: only the encodings read it.
        state.pending = [Decision(kind, 1, building, loss=2)]
        vector = encoding.encode_observation(game.observation(state, 1))
        assert encoding.view(vector, "pending")[0] == code
        np.testing.assert_array_equal(encoding.encode_state(state, 1), vector)


def test_an_attika_payment_beyond_a_landscapes_cards_is_not_representable() -> None:
    game = get_game("attika")
    encoding = make_encoding("attika", 2, {})
    state = game.new_state(1, 2, {})
    cards = {"mountain": 16, "hill": 0, "forest": 0, "water": 0}
    legal = AttikaLegalActions([{"type": "pay", "cards": cards}], [])
    with pytest.raises(ValueError, match="not representable"):
        encoding.state_legal_indices(state, legal)
