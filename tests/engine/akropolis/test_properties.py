"""Properties of whole seeded games for 2, 3 and 4 players, with any options (hypothesis).

The examples are derandomized and there is no example database, so every run plays the
same games; max_examples keeps the suite fast.
"""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from engine.akropolis.city import scan_legal_triangles
from engine.bots import builtin_bot
from engine.core import JSON, IllegalAction
from engine.hexgrid import decode
from engine.match import play_match
from engine.replay import Replay, ReplayError, verify_replay
from engine.rng import SplitMix64
from tests.engine.support import (
    GAME,
    OPTION_NAMES,
    property_settings,
    random_game,
    state_json,
    tampered_replay,
)

TURNS_EACH = {(2, False): 18, (3, False): 16, (4, False): 15, (2, True): 30, (3, True): 20}

Setup = tuple[int, int, dict[str, JSON]]


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    """(seed, players, options): any seed, 2 to 4 players, any variants, all_tiles where
    the player count allows it."""
    seed = draw(st.integers(min_value=0, max_value=2**64 - 1))
    players = draw(st.sampled_from([2, 3, 4]))
    options: dict[str, JSON] = {name: draw(st.booleans()) for name in OPTION_NAMES}
    if players < 4:
        options["all_tiles"] = draw(st.booleans())
    return seed, players, options


def random_replay(seed: int, players: int, options: dict[str, JSON]) -> Replay:
    bots = [builtin_bot("random", "akropolis", seed, seat) for seat in range(players)]
    return play_match(
        GAME,
        seed=seed,
        players=players,
        options=options,
        bots=bots,
        bot_ids=["random"] * players,
    )


@property_settings(50)
@given(setups())
def test_every_action_taken_is_legal_and_applies(setup: Setup) -> None:
    seed, players, options = setup
    turns: Counter[int] = Counter()
    state = None
    for state, chosen in random_game(seed, players, options):
        if chosen is None:
            break
        seat = GAME.current_player(state)
        assert seat == state.turn % players
        assert chosen in GAME.legal_actions(state)
        turns[seat] += 1
    assert state is not None and GAME.is_over(state)
    each = TURNS_EACH[(players, bool(options.get("all_tiles")))]
    assert turns == dict.fromkeys(range(players), each)


@property_settings(25)
@given(setups())
def test_the_legal_triangle_cache_always_matches_a_full_scan(setup: Setup) -> None:
    for state, _ in random_game(*setup):
        for city in state.cities:
            assert city.legal_triangles() == scan_legal_triangles(city)


@property_settings(30)
@given(setups())
def test_an_illegal_action_changes_nothing(setup: Setup) -> None:
    seed, players, options = setup
    rng = SplitMix64(seed ^ 0x5EED)
    for state, chosen in random_game(seed, players, options):
        if chosen is None or state.turn % 3:
            continue
        legal = GAME.legal_actions(state)
        cells = sorted(state.cities[GAME.current_player(state)].top)
        while True:
            q, r = decode(cells[rng.below(len(cells))])
            bad = {
                "tile": rng.below(len(state.site) + 2),
                "q": q + rng.below(5) - 2,
                "r": r + rng.below(5) - 2,
                "rotation": rng.below(6),
            }
            if bad not in legal:
                break
        before = state_json(state)
        try:
            GAME.apply(state, bad)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{bad} is not listed as legal but was accepted")
        assert state_json(state) == before
        assert list(GAME.legal_actions(state)) == list(legal)


@property_settings(15)
@given(setups())
def test_the_state_json_round_trips_throughout_a_game(setup: Setup) -> None:
    for state, _ in random_game(*setup):
        data = json.loads(json.dumps(GAME.state_to_json(state)))
        twin = GAME.state_from_json(data)
        assert GAME.state_to_json(twin) == data
        assert list(GAME.legal_actions(twin)) == list(GAME.legal_actions(state))


@property_settings(20)
@given(setups())
def test_the_same_seed_gives_byte_identical_replays_that_verify(setup: Setup) -> None:
    first = random_replay(*setup)
    second = random_replay(*setup)
    assert first.dumps() == second.dumps()
    verify_replay(first)
    assert Replay.from_json(json.loads(first.dumps())) == first


def tamper(replay: Replay, how: str) -> Replay:
    return tampered_replay(replay, how, {"tile": 0, "q": 99, "r": 99, "rotation": 0})


@property_settings(30)
@given(setups(), st.sampled_from(["illegal action", "score", "seed", "truncated"]))
def test_a_tampered_replay_fails_verification(setup: Setup, how: str) -> None:
    replay = random_replay(*setup)
    try:
        verify_replay(tamper(replay, how))
    except ReplayError:
        return
    raise AssertionError(f"a replay with a changed {how} verified")
