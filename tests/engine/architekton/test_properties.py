"""Properties of whole seeded Architekton games (hypothesis; derandomized, no database)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.architekton.state import ArchitektonState
from engine.bots import builtin_bot
from engine.core import IllegalAction
from engine.match import play_match
from engine.replay import Replay, ReplayError, verify_replay
from engine.rng import SplitMix64
from tests.engine.architekton.support import GAME, random_game, state_json
from tests.engine.support import property_settings, tampered_replay

MAX_ACTIONS = 200
"""A bound on any game's length: 44 tiles to place, a pass or two, and at most one
decision per building."""

seeds = st.integers(min_value=0, max_value=2**64 - 1)


def replay_of(seed: int, bot: str = "random") -> Replay:
    bots = [builtin_bot(bot, GAME.id, seed, seat) for seat in range(2)]
    return play_match(GAME, seed=seed, players=2, options={}, bots=bots, bot_ids=[bot] * 2)


@property_settings(60)
@given(seeds)
def test_every_action_taken_is_legal_and_the_game_ends_in_bounded_time(seed: int) -> None:
    state = None
    for actions, (state, chosen) in enumerate(random_game(seed)):
        if chosen is None:
            break
        legal = GAME.legal_actions(state)
        assert len(legal) > 0
        assert chosen in legal
        assert actions < MAX_ACTIONS
    assert state is not None and GAME.is_over(state)
    result = GAME.result(state)
    assert sorted(result.ranks) in ([1, 1], [1, 2])


@property_settings(40)
@given(seeds)
def test_the_same_seed_gives_byte_identical_replays_that_verify(seed: int) -> None:
    first, second = replay_of(seed), replay_of(seed)
    assert first.dumps() == second.dumps()
    verify_replay(first)
    assert Replay.from_json(json.loads(first.dumps())) == first


@property_settings(10)
@given(seeds)
def test_greedy_games_end_and_verify(seed: int) -> None:
    replay = replay_of(seed, "greedy")
    verify_replay(replay)
    assert replay.dumps() == replay_of(seed, "greedy").dumps()


@property_settings(30)
@given(seeds)
def test_the_state_json_round_trips_throughout_a_game(seed: int) -> None:
    for state, _ in random_game(seed):
        data = json.loads(json.dumps(GAME.state_to_json(state)))
        twin = GAME.state_from_json(data)
        assert GAME.state_to_json(twin) == data
        assert list(GAME.legal_actions(twin)) == list(GAME.legal_actions(state))


def shuffled_hidden(state: ArchitektonState, rng: SplitMix64) -> ArchitektonState:
    """The same table with the face-down piles and reserve dealt differently."""
    other = state.copy()
    buildings = other.building_pile + other.reserve_buildings
    landscapes = other.landscape_pile + other.reserve_landscapes
    rng.shuffle(buildings)
    rng.shuffle(landscapes)
    size_b, size_l = len(other.reserve_buildings), len(other.reserve_landscapes)
    other.reserve_buildings, other.building_pile = buildings[:size_b], buildings[size_b:]
    other.reserve_landscapes, other.landscape_pile = landscapes[:size_l], landscapes[size_l:]
    other.seed = rng.next_u64()
    return other


@property_settings(30)
@given(seeds)
def test_no_hidden_tile_shows_in_an_observation(seed: int) -> None:
    rng = SplitMix64(seed ^ 0xA11CE)
    for state, _ in random_game(seed):
        other = shuffled_hidden(state, rng)
        for player in (0, 1):
            assert GAME.observation(other, player) == GAME.observation(state, player)


@property_settings(30)
@given(seeds)
def test_lookahead_from_an_observation_sees_the_same_legal_actions(seed: int) -> None:
    for state, _ in random_game(seed):
        player = GAME.current_player(state)
        guess = GAME.state_from_observation(GAME.observation(state, player))
        assert list(GAME.legal_actions(guess)) == list(GAME.legal_actions(state))


@property_settings(30)
@given(seeds)
def test_an_illegal_action_changes_nothing(seed: int) -> None:
    rng = SplitMix64(seed ^ 0x5EED)
    for state, chosen in random_game(seed):
        if chosen is None or state.turn % 3:
            continue
        legal = GAME.legal_actions(state)
        candidates: list[Any] = [
            {"building": 1 + rng.below(22), "x": rng.below(9) - 4, "y": rng.below(9) - 4,
             "rotation": rng.below(4)},
            {"landscape": "water", "x": rng.below(9) - 4, "y": rng.below(9) - 4},
            {"pass": True},
            {"house": [rng.below(9) - 4, rng.below(9) - 4]},
            {"remove_house": bool(rng.below(2))},
        ]  # fmt: skip
        for bad in candidates:
            if bad in legal:
                continue
            before = state_json(state)
            try:
                GAME.apply(state, bad)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{bad} is not listed as legal but was accepted")
            assert state_json(state) == before


def tamper(replay: Replay, how: str) -> Replay:
    return tampered_replay(replay, how, {"building": 1, "x": 99, "y": 99, "rotation": 0})


@property_settings(20)
@given(seeds, st.sampled_from(["illegal action", "score", "truncated"]))
def test_a_tampered_replay_fails_verification(seed: int, how: str) -> None:
    try:
        verify_replay(tamper(replay_of(seed), how))
    except ReplayError:
        return
    raise AssertionError(f"a replay with a changed {how} verified")
