"""Properties of whole seeded Megalopolis games for 2 to 6 players (hypothesis;
derandomized, no example database)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.bots import builtin_bot
from engine.core import IllegalAction
from engine.match import play_match
from engine.megalopolis.components import TEMPLE
from engine.megalopolis.state import MegalopolisState
from engine.megalopolis.turns import MAX_TURNS_PER_PLAYER
from engine.replay import Replay, ReplayError, verify_replay
from engine.rng import SplitMix64
from tests.engine.megalopolis.support import GAME, random_game, state_json
from tests.engine.support import property_settings, tampered_replay

MAX_ACTIONS_PER_TURN = 40
"""A bound on the decisions of one turn: each text asks at most a few times, and a chain
of texts uses up a hand, deck or face-down tile at each step."""

setups = st.tuples(st.integers(min_value=0, max_value=2**64 - 1), st.sampled_from([2, 3, 4, 5, 6]))
Setup = tuple[int, int]


def replay_of(seed: int, players: int, bot: str = "random") -> Replay:
    bots = [builtin_bot(bot, GAME.id, seed, seat) for seat in range(players)]
    return play_match(
        GAME, seed=seed, players=players, options={}, bots=bots, bot_ids=[bot] * players
    )


@property_settings(60)
@given(setups)
def test_every_action_taken_is_legal_and_the_game_ends_in_bounded_time(setup: Setup) -> None:
    seed, players = setup
    in_turn = 0
    turns = 0
    state = None
    for state, chosen in random_game(seed, players):
        if chosen is None:
            break
        legal = GAME.legal_actions(state)
        assert len(legal) > 0
        assert chosen in legal
        assert GAME.current_player(state) == state.turn_player
        if state.turns_played != turns:
            turns, in_turn = state.turns_played, 0
        in_turn += 1
        assert in_turn <= MAX_ACTIONS_PER_TURN
    assert state is not None and GAME.is_over(state)
    assert state.turns_played <= MAX_TURNS_PER_PLAYER * players
    assert state.end_reason in ("last_token", "power_stations", "no_player_can_act")
    assert len(GAME.result(state).scores) == players


@property_settings(40)
@given(setups)
def test_the_same_seed_gives_byte_identical_replays_that_verify(setup: Setup) -> None:
    first, second = replay_of(*setup), replay_of(*setup)
    assert first.dumps() == second.dumps()
    verify_replay(first)
    assert Replay.from_json(json.loads(first.dumps())) == first


@property_settings(8)
@given(setups)
def test_greedy_games_end_and_verify(setup: Setup) -> None:
    replay = replay_of(*setup, "greedy")
    verify_replay(replay)
    assert replay.dumps() == replay_of(*setup, "greedy").dumps()


@property_settings(25)
@given(setups)
def test_the_state_json_round_trips_throughout_a_game(setup: Setup) -> None:
    for state, _ in random_game(*setup):
        data = json.loads(json.dumps(GAME.state_to_json(state)))
        twin = GAME.state_from_json(data)
        assert GAME.state_to_json(twin) == data
        assert list(GAME.legal_actions(twin)) == list(GAME.legal_actions(state))


def redealt_for(state: MegalopolisState, viewer: int, rng: SplitMix64) -> MegalopolisState:
    """The same game as `viewer` sees it, with every tile hidden from them dealt anew:
    the deck, the other hands, face-down tiles, and a Library's tiles unless theirs."""
    other = state.copy()
    other.seed = rng.next_u64()
    mine = viewer == other.turn_player
    shown = {
        frame.player for frame in other.stack if mine and frame.power == TEMPLE and frame.step == 1
    }
    pool: list[int] = list(other.deck)
    face_down = sorted(code for code, tile in other.board.items() if not tile.face_up)
    pool += [other.board[code].kind for code in face_down]
    hidden_hands = [p for p in range(other.players) if p != viewer and p not in shown]
    for seat in hidden_hands:
        pool += other.hands[seat]
    frames = [] if mine else [frame for frame in other.stack if frame.looked]
    for frame in frames:
        pool += frame.looked
    rng.shuffle(pool)
    other.deck = [pool.pop() for _ in other.deck]
    for code in face_down:
        other.board[code].kind = pool.pop()
    for seat in hidden_hands:
        other.hands[seat] = sorted(pool.pop() for _ in other.hands[seat])
    for frame in frames:
        frame.looked = [pool.pop() for _ in frame.looked]
    assert not pool
    return other


@property_settings(25)
@given(setups)
def test_no_hidden_tile_shows_in_another_players_observation(setup: Setup) -> None:
    seed, players = setup
    rng = SplitMix64(seed ^ 0xA11CE)
    for state, _ in random_game(seed, players):
        for viewer in range(players):
            other = redealt_for(state, viewer, rng)
            assert GAME.observation(other, viewer) == GAME.observation(state, viewer)
            if viewer == GAME.current_player(state):
                assert list(GAME.legal_actions(other)) == list(GAME.legal_actions(state))


@property_settings(25)
@given(setups)
def test_lookahead_from_an_observation_sees_the_same_position(setup: Setup) -> None:
    for state, _ in random_game(*setup):
        player = GAME.current_player(state)
        seen = GAME.observation(state, player)
        guess = GAME.state_from_observation(seen)
        assert list(GAME.legal_actions(guess)) == list(GAME.legal_actions(state))
        assert GAME.observation(guess, player) == seen


@property_settings(25)
@given(setups)
def test_an_illegal_action_changes_nothing(setup: Setup) -> None:
    seed, players = setup
    rng = SplitMix64(seed ^ 0x5EED)
    for state, chosen in random_game(seed, players):
        if chosen is None or state.turn % 3:
            continue
        legal = GAME.legal_actions(state)
        x, y = rng.below(9) - 4, rng.below(9) - 4
        candidates: list[Any] = [
            {"play": "capitol", "x": x, "y": y},
            {"hotel": [x, y]},
            {"tile": [x, y]},
            {"tile": [x, y], "owner": rng.below(players)},
            {"space": [x, y]},
            {"player": rng.below(players + 1)},
            {"done": True},
            {"pass": True},
        ]
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
    return tampered_replay(replay, how, {"space": [99, 99]})


@property_settings(15)
@given(setups, st.sampled_from(["illegal action", "score", "truncated"]))
def test_a_tampered_replay_fails_verification(setup: Setup, how: str) -> None:
    try:
        verify_replay(tamper(replay_of(*setup), how))
    except ReplayError:
        return
    raise AssertionError(f"a replay with a changed {how} verified")


@property_settings(10)
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_every_player_count_plays_to_a_verified_end(seed: int) -> None:
    for players in (2, 3, 4, 5, 6):
        verify_replay(replay_of(seed, players))
