"""Rounds and the end: refilling the site, seat order, the last tile, turns per player."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.akropolis import Akropolis
from engine.core import IllegalAction
from tests.engine.support import GAME, action, random_game, state_json


def test_when_one_tile_is_left_it_moves_first_and_the_next_stack_follows(
    game: Akropolis,
) -> None:
    state = game.new_state(12, 3, {})
    for _ in range(3):
        game.apply(state, game.legal_actions(state)[0])
    assert len(state.site) == 2
    left, next_stack = state.site[1], list(state.stacks[0])
    stacks = len(state.stacks)
    game.apply(state, game.legal_actions(state)[0])
    assert state.site == [left, *next_stack]
    assert len(state.stacks) == stacks - 1


def test_the_site_refills_from_the_position_left_whichever_tile_was_taken(
    game: Akropolis,
) -> None:
    state = game.new_state(12, 2, {})
    game.apply(state, game.legal_actions(state)[0])
    game.apply(state, game.legal_actions(state)[0])
    first, second = state.site
    state.stones[game.current_player(state)] = 1
    game.apply(state, next(a for a in game.legal_actions(state) if a["tile"] == 1))
    assert state.site[0] == first
    assert second not in state.site


def test_the_site_does_not_refill_while_two_or_more_tiles_are_left(game: Akropolis) -> None:
    state = game.new_state(12, 4, {})
    stacks = [list(s) for s in state.stacks]
    for expected in (5, 4, 3, 2):
        game.apply(state, game.legal_actions(state)[0])
        assert len(state.site) == expected
        assert state.stacks == stacks


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_round_has_one_more_turn_than_players(players: int) -> None:
    refills = []
    stacks = None
    for state, _ in random_game(3, players):
        if stacks is not None and len(state.stacks) != stacks:
            refills.append(state.turn)
        stacks = len(state.stacks)
    assert refills == [(players + 1) * k for k in range(1, 12)]


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (3, {}), (4, {}), (3, {"all_tiles": True})]
)
def test_turns_go_round_the_table_across_rounds(players: int, options: dict[str, bool]) -> None:
    for state, chosen in random_game(21, players, options):
        if chosen is not None:
            assert GAME.current_player(state) == state.turn % players


def test_the_next_round_starts_with_the_next_seat() -> None:
    # 2 players, rounds of 3 turns: seats 0 1 0 | 1 0 1 | 0 ...
    seats = [GAME.current_player(state) for state, chosen in random_game(4, 2) if chosen]
    assert seats[:9] == [0, 1, 0, 1, 0, 1, 0, 1, 0]
    round_starters = seats[::3][:4]
    assert round_starters == [0, 1, 0, 1]


@pytest.mark.parametrize(
    ("players", "options", "turns_each"),
    [
        (2, {}, 18),
        (3, {}, 16),
        (4, {}, 15),
        (2, {"all_tiles": True}, 30),
        (3, {"all_tiles": True}, 20),
    ],
)
def test_each_player_gets_the_rules_number_of_turns(
    players: int, options: dict[str, bool], turns_each: int
) -> None:
    seats: Counter[int] = Counter()
    state = None
    for state, chosen in random_game(8, players, options):
        if chosen is not None:
            seats[GAME.current_player(state)] += 1
    assert seats == dict.fromkeys(range(players), turns_each)
    assert state is not None and state.turn == players * turns_each
    assert all(city.tiles == 1 + turns_each for city in state.cities)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_game_ends_with_one_tile_left_and_no_stacks(game: Akropolis, players: int) -> None:
    *_, (state, last) = random_game(17, players)
    assert last is None
    assert game.is_over(state)
    assert len(state.site) == 1
    assert state.stacks == []


def test_the_game_is_not_over_while_stacks_remain_or_two_tiles_are_left(
    game: Akropolis,
) -> None:
    for state, chosen in random_game(17, 2):
        assert game.is_over(state) == (chosen is None)
        if chosen is not None:
            assert len(state.site) >= 2


def test_the_last_tile_is_never_played(game: Akropolis) -> None:
    *_, (state, _) = random_game(2, 2)
    (last_tile,) = state.site
    assert all(last_tile not in city.tile_at.values() for city in state.cities)
    before = state_json(state)
    with pytest.raises(IllegalAction, match="the game is over"):
        game.apply(state, action(0, 1, 1, 0))
    assert state_json(state) == before


def test_every_tile_but_the_last_is_built_into_some_city(game: Akropolis) -> None:
    *_, (state, _) = random_game(6, 4)
    dealt = game.new_state(6, 4, {})
    in_play = len(dealt.site) + sum(len(stack) for stack in dealt.stacks)
    starting_tiles = 4
    assert sum(city.tiles for city in state.cities) == starting_tiles + in_play - 1
