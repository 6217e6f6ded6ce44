"""Properties of whole seeded games for 2, 3 and 4 players (hypothesis).

The examples are derandomized and there is no example database, so every run plays the
same games.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.attika import AttikaState
from engine.attika.builds import affordable_cells, slow_affordable_cells
from engine.attika.colonies import shrines_linked, shrines_touched
from engine.attika.components import LANDSCAPES
from engine.attika.index import MapIndex
from engine.attika.map import slow_tile_centres, tile_centres
from engine.bots import builtin_bot
from engine.core import IllegalAction
from engine.match import play_match
from engine.replay import Replay, ReplayError, verify_replay
from engine.rng import SplitMix64
from tests.engine.attika.support import GAME, random_game, reshuffle_hidden, state_json
from tests.engine.support import property_settings, tampered_replay

MAX_DECISIONS = 2000
"""No game may take more decisions than this (random games take a few hundred)."""

Setup = tuple[int, int]
setups = st.tuples(st.integers(min_value=0, max_value=2**64 - 1), st.sampled_from([2, 3, 4]))


def random_replay(seed: int, players: int) -> Replay:
    bots = [builtin_bot("random", "attika", seed, seat) for seat in range(players)]
    return play_match(
        GAME, seed=seed, players=players, options={}, bots=bots, bot_ids=["random"] * players
    )


def colony_partition(labels: dict[int, int]) -> list[list[int]]:
    groups: dict[int, list[int]] = {}
    for cell, label in labels.items():
        groups.setdefault(label, []).append(cell)
    return sorted(sorted(cells) for cells in groups.values())


def assert_index_is_fresh(state: AttikaState) -> None:
    """The tables kept up to date move by move equal tables built from scratch."""
    fresh = MapIndex.build(
        state.players, state.tiles, state.shrines, [s.placed for s in state.seats]
    )
    kept = state.index
    for name in ("symbol_at", "blocked", "frontier", "owner_at", "building_at", "discount"):
        assert getattr(kept, name) == getattr(fresh, name), name
    assert kept.by_discount == fresh.by_discount and kept.free_sorted == fresh.free_sorted
    assert kept.near == fresh.near and kept.touching == fresh.touching
    assert kept.colonies == fresh.colonies
    for mine, theirs in zip(kept.colony_of, fresh.colony_of, strict=True):
        assert colony_partition(mine) == colony_partition(theirs)


def assert_conserved(state: AttikaState) -> None:
    cards = len(state.deck) + sum(state.discard) + sum(sum(s.hand) for s in state.seats)
    assert cards == 60
    assert state.amphora_supply + sum(s.amphorae for s in state.seats) == 15
    in_hand = state.pending is not None and state.pending.kind in ("drawn", "pay")
    for player, seat in enumerate(state.seats):
        held = len(seat.board) + sum(len(s) for s in seat.stacks) + len(seat.placed)
        assert held + (in_hand and player == state.current) == 30


@property_settings(40)
@given(setups)
def test_every_action_taken_is_legal_and_every_game_ends(setup: Setup) -> None:
    seed, players = setup
    state = None
    for decisions, (state, chosen) in enumerate(random_game(seed, players)):
        assert decisions < MAX_DECISIONS
        if chosen is None:
            break
        assert chosen in GAME.legal_actions(state)
        assert_conserved(state)
    assert state is not None and GAME.is_over(state)
    assert_conserved(state)
    result = GAME.result(state)
    assert sorted(result.ranks)[0] == 1
    if state.winner is not None:
        assert result.ranks[state.winner] == 1 and result.ranks.count(1) == 1


@property_settings(15)
@given(setups)
def test_the_kept_tables_and_fast_listings_match_the_slow_oracles(setup: Setup) -> None:
    for state, chosen in random_game(*setup):
        assert_index_is_fresh(state)
        if chosen is None:
            break
        player = GAME.current_player(state)
        for building in state.seats[player].board:
            assert affordable_cells(state, player, building) == slow_affordable_cells(
                state, player, building
            )
        if state.pending is not None and state.pending.kind == "tile":
            assert tile_centres(state) == slow_tile_centres(state)
        for seat, labels in enumerate(state.index.colony_of):
            for cell, label in labels.items():
                linked = shrines_linked(state, seat, cell) >= 2
                assert (shrines_touched(state, seat, label) >= 2) == linked


@property_settings(15)
@given(setups)
def test_the_state_json_round_trips_throughout_a_game(setup: Setup) -> None:
    for state, _ in random_game(*setup):
        data = json.loads(json.dumps(GAME.state_to_json(state)))
        twin = GAME.state_from_json(data)
        assert GAME.state_to_json(twin) == data
        assert list(GAME.legal_actions(twin)) == list(GAME.legal_actions(state))
        copied = GAME.copy_state(state)
        assert GAME.state_to_json(copied) == data


@property_settings(15)
@given(setups)
def test_observations_never_show_what_the_viewer_cannot_see(setup: Setup) -> None:
    seed, players = setup
    for state, chosen in random_game(seed, players):
        if chosen is None or state.turn % 7:
            continue
        for viewer in range(players):
            seen = GAME.observation(state, viewer)
            assert GAME.observation(reshuffle_hidden(state, viewer, state.turn), viewer) == seen


@property_settings(15)
@given(setups)
def test_a_state_from_the_movers_observation_offers_the_same_choices(setup: Setup) -> None:
    for state, chosen in random_game(*setup):
        if chosen is None or state.turn % 5:
            continue
        seen = json.loads(json.dumps(GAME.observation(state, GAME.current_player(state))))
        guess = GAME.state_from_observation(seen)
        assert list(GAME.legal_actions(guess)) == list(GAME.legal_actions(state))
        assert GAME.observation(guess, seen["player"]) == seen


def garbage(rng: SplitMix64) -> dict[str, Any]:
    kind = rng.below(5)
    q, r = rng.below(17) - 8, rng.below(17) - 8
    if kind == 0:
        return {"type": "draw", "stack": rng.below(6) - 1}
    if kind == 1:
        return {"type": "build", "building": "road_1", "q": q, "r": r}
    if kind == 2:
        return {"type": "extend", "q": q, "r": r, "rotation": rng.below(6)}
    if kind == 3:
        n = [rng.below(3) for _ in range(4)]
        return {"type": "pay", "cards": dict(zip(LANDSCAPES, n, strict=True))}
    return {"type": "amphora", "use": "action"}


@property_settings(20)
@given(setups)
def test_an_illegal_action_changes_nothing(setup: Setup) -> None:
    seed, players = setup
    rng = SplitMix64(seed ^ 0x5EED)
    for state, chosen in random_game(seed, players):
        if chosen is None or state.turn % 3:
            continue
        legal = list(GAME.legal_actions(state))
        bad = garbage(rng)
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
        assert list(GAME.legal_actions(state)) == legal


@property_settings(20)
@given(setups)
def test_the_same_seed_gives_byte_identical_replays_that_verify(setup: Setup) -> None:
    first = random_replay(*setup)
    second = random_replay(*setup)
    assert first.dumps() == second.dumps()
    verify_replay(first)
    assert Replay.from_json(json.loads(first.dumps())) == first


def tamper(replay: Replay, how: str) -> Replay:
    return tampered_replay(replay, how, {"type": "draw", "stack": 9})


@property_settings(20)
@given(setups, st.sampled_from(["illegal action", "score", "seed", "truncated"]))
def test_a_tampered_replay_fails_verification(setup: Setup, how: str) -> None:
    replay = random_replay(*setup)
    try:
        verify_replay(tamper(replay, how))
    except ReplayError:
        return
    raise AssertionError(f"a replay with a changed {how} verified")
