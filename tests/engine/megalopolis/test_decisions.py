"""Decisions of docs/rules/megalopolis-decisions.md not checked elsewhere, by anchor (the
other decisions' tests cite theirs in the modules of their subject)."""

from __future__ import annotations

import pytest

from tests.engine.megalopolis.support import (
    GAME,
    choose,
    down,
    legal,
    play,
    random_game,
    table,
    tile,
    tokens_at,
    turns_to_the_end,
    up,
)


@pytest.mark.parametrize(("seed", "players"), [(3, 2), (4, 4), (5, 6)])
def test_every_choice_of_a_text_is_the_turn_players(seed: int, players: int) -> None:
    """Decision #acting-player-decides."""
    asked = 0
    for state, action in random_game(seed, players):
        if action is not None and state.stack:
            assert GAME.current_player(state) == state.turn_player
            asked += 1
    assert asked, "no text asked anything: pick another seed"


def test_a_text_whose_tile_left_the_table_ends() -> None:
    """Decision #own-tile-gone: the Capitol turns up a Disaster Site, which sends the
    Capitol away; the Capitol takes nothing more over."""
    state = table({(0, 0): down("disaster_site"), (1, 1): up("factory", 1)},
                  hands=[["capitol"], []])  # fmt: skip
    play(state, "capitol", 0, 1)
    choose(state, tile(0, 0))
    choose(state, tile(0, 1))
    assert tokens_at(state, 1, 1) == [0, 1]
    assert GAME.current_player(state) == 1


def test_an_embassy_may_choose_a_tile_where_you_have_a_token() -> None:
    """Decision #embassy: its tokens, yours too, go back and you put one."""
    state = table({(0, 0): up("factory", 0, 1, 1)}, hands=[["embassy"], []])
    play(state, "embassy", 0, 1)
    assert legal(state) == [tile(0, 0)]
    choose(state, tile(0, 0))
    assert tokens_at(state, 0, 0) == [1, 0]
    assert state.supply == [13, 15]


def test_several_last_tokens_on_a_police_hq_count_from_the_first() -> None:
    """Decision #first-last-token: seats 1 and 2 both place their last token on seat 0's
    Police HQ; the last round counts from seat 1: seat 2 (no token: it passes), seat 0."""
    state = table({(0, 0): up("factory")}, players=3, hands=[["police_hq"], [], []],
                  supply=[15, 1, 1])  # fmt: skip
    play(state, "police_hq", 1, 0)
    assert tokens_at(state, 1, 0) == [1, 1, 1]
    assert state.final_round == [0]
    assert legal(state) == [{"pass": True}]
    assert turns_to_the_end(state) == [2, 0]
