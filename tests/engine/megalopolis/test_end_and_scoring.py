"""The end (last token and one more turn each, five Power Stations, nobody able to act,
the safety limit) and the scoring (groups, bonus points, silver majority, ties)."""

from __future__ import annotations

import pytest

from engine.megalopolis import Megalopolis
from engine.megalopolis.turns import MAX_TURNS_PER_PLAYER
from engine.squaregrid import decode
from tests.engine.megalopolis.support import (
    GAME,
    legal,
    play,
    table,
    tile,
    tokens_at,
    turns_to_the_end,
    up,
)


def test_after_a_last_token_every_other_player_plays_once_more() -> None:
    state = table({(0, 0): up("factory")}, players=3, hands=[["hotel"], ["hotel"], ["hotel"]],
                  supply=[1, 15, 15])  # fmt: skip
    play(state, "hotel", 1, 0)
    assert state.final_round == [2]
    assert GAME.current_player(state) == 1
    play(state, "hotel", 2, 0)
    assert GAME.current_player(state) == 2
    play(state, "hotel", 3, 0)
    assert GAME.is_over(state)
    assert state.end_reason == "last_token"


def test_the_last_round_follows_the_turn_order_from_the_trigger() -> None:
    state = table({(0, 0): up("factory")}, players=4, hands=[["plaza"]] * 4,
                  supply=[15, 15, 1, 15], turn_player=2)  # fmt: skip
    play(state, "plaza", 1, 0)
    seats = []
    while not GAME.is_over(state):
        seats.append(GAME.current_player(state))
        GAME.apply(state, GAME.legal_actions(state)[0])
    assert seats == [3, 0, 1]


def test_a_last_token_stops_further_tiles_from_being_played_that_turn() -> None:
    """Decision #no-tile-after-last-token."""
    state = table({(0, 0): up("factory")}, hands=[["construction_site", "bank"], ["bank"]],
                  supply=[1, 15])  # fmt: skip
    play(state, "construction_site", 1, 0)
    assert GAME.current_player(state) == 1
    assert len(state.board) == 2


def test_a_last_token_still_lets_the_tiles_other_texts_resolve() -> None:
    """Decision #no-tile-after-last-token."""
    state = table({(0, 0): up("factory", 1)}, hands=[["security_guard"], ["bank"]],
                  supply=[1, 14])  # fmt: skip
    play(state, "security_guard", 1, 0)
    assert legal(state) == [tile(0, 0), tile(1, 0)]


def test_a_port_places_nothing_after_a_last_token() -> None:
    """Decision #no-tile-after-last-token."""
    state = table({(0, 0): up("factory")}, hands=[["port"], ["bank"]], supply=[1, 15])
    play(state, "port", 1, 0)
    assert GAME.current_player(state) == 1
    assert len(state.board) == 2


def test_a_last_token_placed_by_the_police_hq_triggers_the_end_too() -> None:
    """Decision #last-round-from-placer."""
    state = table({(0, 0): up("factory")}, hands=[["police_hq"], ["bank"]], supply=[15, 1])
    play(state, "police_hq", 1, 0)
    assert tokens_at(state, 1, 0) == [1, 1]
    assert state.final_round == []
    assert turns_to_the_end(state) == [0]  # the only other player: the turn player


def test_after_a_police_hq_the_last_round_counts_from_who_placed_the_last_token() -> None:
    """Seat 1 places its last token on seat 0's Police HQ: seats 2 and 0, the other
    players, play once more, in that order; seat 1 never plays again.
    Decision #last-round-from-placer."""
    state = table({(0, 0): up("factory")}, players=3, hands=[["police_hq"], ["bank"], ["bank"]],
                  supply=[15, 1, 15])  # fmt: skip
    play(state, "police_hq", 1, 0)
    assert tokens_at(state, 1, 0) == [1, 1, 1]
    assert turns_to_the_end(state) == [2, 0]
    assert state.end_reason == "last_token"


def test_when_nobody_can_act_the_game_ends() -> None:
    """Decision #no-reshuffle."""
    state = table({(0, 0): up("factory")}, hands=[[], []], deck=[])
    GAME.apply(state, {"pass": True})
    assert not GAME.is_over(state)
    GAME.apply(state, {"pass": True})
    assert GAME.is_over(state)
    assert state.end_reason == "no_player_can_act"


def test_a_pass_that_draws_tiles_does_not_count_towards_the_end() -> None:
    """Decision #no-reshuffle."""
    state = table({(0, 0): up("factory")}, hands=[[], []], deck=["bank"] * 3)
    GAME.apply(state, {"pass": True})
    assert state.passes == 0
    assert len(state.hands[0]) == 3


def test_the_safety_limit_ends_an_endless_game() -> None:
    """Decision #turn-limit."""
    state = table({(0, 0): up("factory")}, hands=[["bank"], ["bank"]])
    state.turns_played = MAX_TURNS_PER_PLAYER * 2 - 1
    play(state, "bank", 1, 0)
    assert GAME.is_over(state)
    assert state.end_reason == "turn_limit"


def test_mausoleums_taking_each_other_back_loop_until_the_safety_limit() -> None:
    """Decision #turn-limit."""
    state = table({(0, 0): up("mausoleum")}, hands=[["mausoleum"], []], deck=[])
    while not GAME.is_over(state):
        if GAME.current_player(state) == 1:
            GAME.apply(state, {"pass": True})
            continue
        x, y = decode(next(iter(state.board)))  # the one Mausoleum on the table
        GAME.apply(state, {"play": "mausoleum", "x": x + 1, "y": y})
        GAME.apply(state, {"tile": [x, y]})  # taken back into the hand
        assert state.supply == [14, 15] and len(state.board) == 1
    assert state.end_reason == "turn_limit"
    assert state.turns_played == 2 * MAX_TURNS_PER_PLAYER


# --- scoring -------------------------------------------------------------------------


def test_the_rules_example_abe_9_betty_8(game: Megalopolis) -> None:
    abe, betty = 0, 1
    state = table(
        {
            (0, 0): up("construction_site", abe),
            (1, 0): up("housing", abe),
            (2, 0): up("housing", abe),
            (3, 0): up("housing", abe),
            (4, 0): up("police_hq", abe, betty),
            (5, 0): up("power_station", betty),
            (6, 0): up("power_station", betty),
            (0, 3): up("housing", abe),
            (1, 3): up("housing", abe),
            (2, 3): up("housing", abe),
        }
    )
    result = game.result(state)
    assert result.scores == [9, 8]
    assert result.ranks == [1, 2]
    assert result.details[0]["groups"] == 8 and result.details[1]["groups"] == 3
    assert result.details[1]["bonus"] == 3 and result.details[1]["silver"] == 2


def test_groups_of_fewer_than_three_score_nothing(game: Megalopolis) -> None:
    state = table({(0, 0): up("housing", 0), (1, 0): up("housing", 0), (5, 0): up("housing", 1)})
    assert game.result(state).scores == [0, 0]


def test_a_tile_with_several_players_tokens_counts_for_each(game: Megalopolis) -> None:
    tiles = {(x, 0): up("housing", 0, 1) for x in range(3)}
    assert game.result(table(tiles)).scores == [3, 3]


def test_tied_silver_majorities_all_score(game: Megalopolis) -> None:
    state = table({(0, 0): up("port", 0), (5, 0): up("factory", 1), (9, 0): up("port", 2)},
                  players=3)  # fmt: skip
    assert game.result(state).scores == [1, 1, 1]
    state = table({(0, 0): up("port", 0), (5, 0): up("factory", 0), (9, 0): up("port", 2)},
                  players=3)  # fmt: skip
    assert game.result(state).scores == [2, 0, 0]


def test_a_tie_goes_to_the_largest_controlled_area(game: Megalopolis) -> None:
    """Decision #tie-break."""
    state = table(
        {
            (0, 0): up("housing", 0), (1, 0): up("housing", 0), (2, 0): up("housing", 0),
            (0, 5): up("bank", 1), (1, 5): up("housing", 1), (3, 5): up("bank", 1),
        }
    )  # fmt: skip
    assert game.result(state).scores == [3, 2]
    state2 = table(
        {
            (0, 0): up("housing", 0), (1, 0): up("housing", 0), (2, 0): up("housing", 0),
            (0, 5): up("bank", 1), (3, 5): up("bank", 1), (6, 5): up("bank", 1),
        }
    )  # fmt: skip
    result2 = game.result(state2)
    assert result2.scores == [3, 3]
    assert result2.ranks == [1, 2]


def test_a_full_tie_is_shared(game: Megalopolis) -> None:
    """Decision #tie-break."""
    state = table({(0, 0): up("bank", 0), (5, 0): up("bank", 1)})
    assert game.result(state).ranks == [1, 1]


@pytest.mark.parametrize("players", [2, 6])
def test_the_result_details_say_how_the_game_ended(game: Megalopolis, players: int) -> None:
    state = game.new_state(1, players, {})
    while not game.is_over(state):
        game.apply(state, game.legal_actions(state)[0])
    details = game.result(state).details
    assert {d["end"] for d in details} == {state.end_reason}
