"""The 21 powers, each carried out with the acting player's choices as actions.

`factory` tiles stand in where a tile without a power is needed (a Factory's text acts
only when it is played)."""

from __future__ import annotations

from engine.megalopolis import MegalopolisState
from engine.megalopolis.components import BANK, KIND_OF_NAME, LIBRARY
from tests.engine.megalopolis.support import (
    GAME,
    cell,
    choose,
    down,
    hand,
    kind_at,
    legal,
    play,
    table,
    tile,
    tokens_at,
    up,
)

DONE = {"done": True}


def turn_is_over(state: MegalopolisState) -> bool:
    return not state.stack and not state.resolving


# --- arboretum -----------------------------------------------------------------------


def test_arboretum_takes_back_up_to_three_of_your_tokens() -> None:
    """Decision #arboretum."""
    state = table(
        {(0, 0): up("factory", 0, 0), (1, 0): up("factory", 0, 1), (2, 0): up("factory", 1)},
        hands=[["arboretum"], []],
    )
    play(state, "arboretum", 0, 1)
    assert legal(state) == [tile(0, 0), tile(0, 1), tile(1, 0), DONE]
    choose(state, tile(0, 0))
    choose(state, tile(0, 0))
    assert legal(state) == [tile(0, 1), tile(1, 0), DONE]
    choose(state, tile(1, 0))
    assert turn_is_over(state)
    assert tokens_at(state, 0, 0) == [0, 0] and tokens_at(state, 1, 0) == [0, 1]
    assert state.supply[0] == 15 - 4 + 3


def test_arboretum_may_stop_early() -> None:
    """Decision #arboretum."""
    state = table({(0, 0): up("factory", 0)}, hands=[["arboretum"], []])
    play(state, "arboretum", 0, 1)
    choose(state, DONE)
    assert turn_is_over(state)
    assert tokens_at(state, 0, 0) == [1, 0]


# --- bank ----------------------------------------------------------------------------


def test_bank_swaps_its_token_with_one_on_a_tile_you_do_not_control() -> None:
    """Decision #bank."""
    state = table(
        {(0, 0): up("factory", 1), (1, 0): up("factory", 0, 1), (2, 0): up("factory", 1, 2)},
        players=3,
        hands=[["bank"], [], []],
    )
    play(state, "bank", 0, 1)
    assert legal(state) == [
        {"tile": [0, 0], "owner": 1},
        {"tile": [2, 0], "owner": 1},
        {"tile": [2, 0], "owner": 2},
    ]
    choose(state, {"tile": [2, 0], "owner": 2})
    assert tokens_at(state, 0, 1) == [0, 0, 1]
    assert tokens_at(state, 2, 0) == [1, 1, 0]


def test_bank_with_no_tile_to_swap_with_does_nothing() -> None:
    """Decision #missing-target."""
    state = table({(0, 0): up("factory", 0)}, hands=[["bank"], []])
    play(state, "bank", 0, 1)
    assert turn_is_over(state)


# --- capitol -------------------------------------------------------------------------


def capitol_table(supply: list[int] | None = None) -> MegalopolisState:
    return table(
        {
            (0, 0): up("factory", 1, 1),
            (2, 0): down("housing"),
            (1, 1): up("factory", 0),
            (1, -1): up("factory"),
        },
        hands=[["capitol"], []],
        supply=supply,
    )


def test_capitol_takes_over_every_adjacent_tile_in_the_order_chosen() -> None:
    """Decision #capitol-order."""
    state = capitol_table()
    play(state, "capitol", 1, 0)
    assert legal(state) == [tile(0, 0), tile(1, -1), tile(1, 1), tile(2, 0)]
    choose(state, tile(0, 0))
    assert tokens_at(state, 0, 0) == [1, 0]
    assert state.supply[1] == 15
    choose(state, tile(2, 0))  # face down: a Housing, resolved before the Capitol goes on
    assert kind_at(state, 2, 0) == "housing"
    assert legal(state) == [tile(1, -1)]
    choose(state, tile(1, -1))
    assert legal(state) == [tile(1, -1), tile(1, 1)]
    choose(state, tile(1, 1))
    choose(state, tile(1, -1))
    assert turn_is_over(state)
    assert tokens_at(state, 1, -1) == [1, 0]
    assert tokens_at(state, 1, 1) == [1, 0]


def test_capitol_without_tokens_can_only_take_over_tiles_holding_one_of_yours() -> None:
    """Decision #capitol-no-token."""
    state = capitol_table(supply=[3, 13])  # 2 left after the Capitol itself
    play(state, "capitol", 1, 0)
    choose(state, tile(0, 0))
    choose(state, tile(1, -1))
    assert state.supply[0] == 0
    assert legal(state) == [tile(1, 1)]
    choose(state, tile(1, 1))
    assert turn_is_over(state)
    assert not state.board[cell(2, 0)].face_up


# --- construction site ---------------------------------------------------------------


def test_construction_site_plays_another_tile_from_the_hand() -> None:
    state = table({(0, 0): up("factory", 1)}, hands=[["construction_site", "security_guard"], []])
    play(state, "construction_site", 1, 0)
    assert {a["play"] for a in legal(state)} == {"security_guard"}
    play(state, "security_guard", 2, 0)
    assert tokens_at(state, 2, 0) == [1, 0]
    choose(state, tile(0, 0))  # the second tile's text applies
    assert tokens_at(state, 0, 0) == [0, 0]


def test_construction_site_with_an_empty_hand_does_nothing() -> None:
    """Decision #missing-target."""
    state = table({(0, 0): up("factory", 1)}, hands=[["construction_site"], []])
    play(state, "construction_site", 1, 0)
    assert turn_is_over(state)


# --- disaster site -------------------------------------------------------------------


def test_disaster_site_sends_another_tile_to_the_bottom_of_the_deck() -> None:
    state = table({(0, 0): up("bank", 1, 1), (1, 0): down("stadium")},
                  hands=[["disaster_site"], []])  # fmt: skip
    play(state, "disaster_site", 0, 1)
    assert legal(state) == [tile(0, 0), tile(1, 0)]
    choose(state, tile(0, 0))
    assert cell(0, 0) not in state.board
    assert state.deck[-1] == BANK
    assert state.supply[1] == 15


def test_disaster_site_may_remove_a_face_down_tile() -> None:
    """Decision #disaster-site."""
    state = table({(0, 0): up("factory"), (1, 0): down("stadium")}, hands=[["disaster_site"], []])
    play(state, "disaster_site", 0, 1)
    choose(state, tile(1, 0))
    assert state.deck[-1] == KIND_OF_NAME["stadium"]


# --- embassy -------------------------------------------------------------------------


def test_embassy_puts_your_token_on_an_adjacent_tile_returning_the_others() -> None:
    state = table({(0, 0): up("factory", 1, 1), (5, 5): up("factory", 1)},
                  hands=[["embassy"], []])  # fmt: skip
    play(state, "embassy", 0, 1)
    assert legal(state) == [tile(0, 0)]
    choose(state, tile(0, 0))
    assert tokens_at(state, 0, 0) == [1, 0]
    assert state.supply == [13, 15 - 1]


# --- factory -------------------------------------------------------------------------


def test_factory_draws_five_more_after_the_refill() -> None:
    state = table({(0, 0): up("plaza")}, hands=[["factory"], []])
    play(state, "factory", 1, 0)
    assert len(state.hands[0]) == 10


def test_two_factories_in_a_turn_draw_ten_more() -> None:
    state = table({(0, 0): down("factory"), (2, 0): down("factory")}, hands=[["capitol"], []],
                  deck=["housing"] * 30)  # fmt: skip
    play(state, "capitol", 1, 0)
    choose(state, tile(0, 0))
    choose(state, tile(2, 0))
    assert turn_is_over(state)
    assert len(state.hands[0]) == 5 + 5 + 5


# --- hotel ---------------------------------------------------------------------------


def test_playing_a_hotel_does_nothing_at_once_but_offers_it_later() -> None:
    state = table({(0, 0): up("factory")}, hands=[["hotel"], ["bank"]])
    play(state, "hotel", 1, 0)
    assert turn_is_over(state)
    assert {"hotel": [1, 0]} in legal(state)  # player 1 has no token on it


# --- housing -------------------------------------------------------------------------


def test_housing_puts_a_token_on_an_empty_tile_face_down_ones_included() -> None:
    """Decision #housing."""
    state = table(
        {(0, 0): up("factory", 1), (1, 0): up("factory"), (-1, 0): down("embassy")},
        hands=[["housing"], []],
    )
    play(state, "housing", 0, -1)
    assert legal(state) == [tile(-1, 0), tile(1, 0)]
    choose(state, tile(-1, 0))
    assert kind_at(state, -1, 0) == "embassy"
    assert tokens_at(state, -1, 0) == [1, 0]
    assert legal(state) == [tile(0, 0)]  # the Embassy's choice comes next


# --- library -------------------------------------------------------------------------


def test_library_plays_one_of_the_top_five_and_puts_the_rest_at_the_bottom() -> None:
    deck = ["library", "bank", "housing", "library", "plaza", "stadium", "temple"]
    state = table({(0, 0): up("factory")}, hands=[["library"], []], deck=deck)
    play(state, "library", 1, 0)
    assert {a["play"] for a in legal(state)} == {"bank", "housing", "plaza"}
    play(state, "housing", 2, 0)
    rest = ("stadium", "temple", "library", "bank", "library", "plaza")
    assert state.deck == [KIND_OF_NAME[k] for k in rest]
    assert kind_at(state, 2, 0) == "housing"
    assert tokens_at(state, 2, 0) == [1, 0]
    assert legal(state) == [tile(0, 0)]  # the played tile's text follows


def test_library_leaves_the_deck_order_of_the_four_at_the_bottom() -> None:
    """Decision #library."""
    deck = ["bank", "housing", "library", "plaza", "stadium"] + ["temple"] * 10
    state = table({(0, 0): up("factory")}, hands=[["library"] * 5, []], deck=deck)
    play(state, "library", 1, 0)
    play(state, "housing", 2, 0)
    choose(state, tile(0, 0))  # the Housing's choice
    assert [k for k in state.deck[-4:]] == [KIND_OF_NAME[k] for k in ("bank", "library", "plaza",
                                                                       "stadium")]  # fmt: skip


def test_library_with_only_libraries_puts_all_five_back() -> None:
    """Decision #library."""
    deck = ["library"] * 5 + ["temple"]
    state = table({(0, 0): up("factory")}, hands=[["library"] * 5, []], deck=deck)
    play(state, "library", 1, 0)
    assert turn_is_over(state)
    assert state.deck == [LIBRARY] * 5  # the Temple was drawn by the refill


# --- mausoleum -----------------------------------------------------------------------


def test_mausoleum_takes_an_adjacent_tile_into_the_hand() -> None:
    state = table({(0, 0): up("bank", 1), (1, 1): up("factory")}, hands=[["mausoleum"], []],
                  deck=[])  # fmt: skip
    play(state, "mausoleum", 0, 1)
    assert legal(state) == [tile(0, 0), tile(1, 1)]
    choose(state, tile(0, 0))
    assert cell(0, 0) not in state.board
    assert hand(state, 0) == ["bank"]
    assert state.supply[1] == 15


# --- plaza ---------------------------------------------------------------------------


def test_tiles_must_be_played_next_to_a_plaza_while_they_can() -> None:
    """Decision #plaza-placement."""
    state = table({(0, 0): up("plaza"), (3, 0): up("factory")}, hands=[["bank"], []])
    assert {(a["x"], a["y"]) for a in legal(state)} == {(0, 1), (1, 0), (0, -1), (-1, 0)}


def test_a_plaza_with_no_free_side_does_not_restrict() -> None:
    tiles = {(0, 0): up("plaza"), (0, 1): up("factory"), (1, 0): up("factory"),
             (0, -1): up("factory"), (-1, 0): up("factory")}  # fmt: skip
    state = table(tiles, hands=[["bank"], []])
    assert len(legal(state)) == 8


def test_a_face_down_plaza_does_not_restrict() -> None:
    state = table({(0, 0): down("plaza"), (1, 0): up("factory")}, hands=[["bank"], []])
    assert len(legal(state)) == 6


# --- police hq -----------------------------------------------------------------------


def test_police_hq_makes_every_other_player_with_a_token_put_one_on_it() -> None:
    """Decision #police-hq."""
    state = table({(0, 0): up("factory")}, players=3, hands=[["police_hq"], [], []],
                  supply=[15, 15, 0])  # fmt: skip
    play(state, "police_hq", 1, 0)
    assert tokens_at(state, 1, 0) == [1, 1, 0]
    assert state.supply == [14, 14, 0]


# --- port ----------------------------------------------------------------------------


def test_port_places_the_top_of_the_deck_face_down_where_chosen() -> None:
    state = table({(0, 0): up("factory")}, hands=[["port"], []], deck=["capitol", "bank"])
    play(state, "port", 1, 0)
    assert {"space": [2, 0]} in legal(state) and {"space": [-1, 0]} in legal(state)
    choose(state, {"space": [-1, 0]})
    placed = state.board[cell(-1, 0)]
    assert not placed.face_up and kind_at(state, -1, 0) == "capitol"
    assert placed.tokens == [0, 0]


def test_port_obeys_the_plaza() -> None:
    """Decision #plaza-placement."""
    state = table({(0, 0): up("plaza"), (1, 0): up("factory")}, hands=[["port"], []])
    play(state, "port", 0, 1)
    assert {a["space"][0] for a in legal(state)} <= {-1, 0, 1}
    assert legal(state) == [{"space": [-1, 0]}, {"space": [0, -1]}]


def test_port_with_an_empty_deck_does_nothing() -> None:
    """Decision #missing-target."""
    state = table({(0, 0): up("factory")}, hands=[["port"], []], deck=[])
    play(state, "port", 1, 0)
    assert turn_is_over(state)


# --- post office ---------------------------------------------------------------------


def test_post_office_moves_a_tile_with_its_tokens() -> None:
    """Decision #post-office."""
    state = table({(0, 0): up("bank", 1, 0), (1, 0): up("factory")}, hands=[["post_office"], []])
    play(state, "post_office", 2, 0)
    assert legal(state) == [tile(0, 0), tile(1, 0), tile(2, 0)]
    choose(state, tile(0, 0))
    spaces = [tuple(a["space"]) for a in legal(state)]
    assert (0, 0) not in spaces and (3, 0) in spaces and (-1, 0) not in spaces
    choose(state, {"space": [3, 0]})
    assert cell(0, 0) not in state.board
    assert kind_at(state, 3, 0) == "bank" and tokens_at(state, 3, 0) == [1, 1]


def test_a_moved_tile_ignores_the_plaza() -> None:
    """Decision #plaza-placement."""
    state = table({(0, 0): up("plaza"), (1, 0): up("factory", 1)}, hands=[["post_office"], []])
    play(state, "post_office", 0, 1)
    choose(state, tile(1, 0))
    assert {"space": [1, 1]} in legal(state)


# --- power station -------------------------------------------------------------------


def test_the_fifth_power_station_in_play_ends_the_game_at_once() -> None:
    """Decision #face-up-power-stations."""
    tiles = {(x, 0): up("power_station") for x in range(4)}
    state = table(tiles, hands=[["power_station"], []])
    play(state, "power_station", 4, 0)
    assert GAME.is_over(state)
    assert state.end_reason == "power_stations"


def test_a_face_down_power_station_is_not_in_play_until_it_turns_up() -> None:
    """Decision #face-up-power-stations."""
    tiles = {(x, 0): up("power_station") for x in range(4)} | {(0, 2): down("power_station")}
    state = table(tiles, hands=[["housing"], []])
    assert not GAME.is_over(state)
    play(state, "housing", 0, 3)
    choose(state, tile(0, 2))
    assert GAME.is_over(state)


# --- security guard ------------------------------------------------------------------


def test_security_guard_returns_every_token_on_a_chosen_tile() -> None:
    state = table({(0, 0): up("factory", 0, 1, 1)}, hands=[["security_guard"], []])
    play(state, "security_guard", 1, 0)
    assert legal(state) == [tile(0, 0), tile(1, 0)]
    choose(state, tile(0, 0))
    assert tokens_at(state, 0, 0) == [0, 0]
    assert state.supply == [14, 15]


def test_a_text_with_a_target_must_be_carried_out_even_against_its_player() -> None:
    """Decision #mandatory-texts: the only tile with a token is the Security Guard itself,
    so its player must take back the token just placed; no action skips the text."""
    state = table({(0, 0): up("factory")}, hands=[["security_guard"], []])
    play(state, "security_guard", 1, 0)
    assert legal(state) == [tile(1, 0)]
    choose(state, tile(1, 0))
    assert tokens_at(state, 1, 0) == [0, 0] and state.supply == [15, 15]
    assert turn_is_over(state)


def test_a_construction_site_must_play_a_tile_from_the_hand() -> None:
    """Decision #mandatory-texts."""
    state = table({(0, 0): up("factory")}, hands=[["construction_site", "bank"], []])
    play(state, "construction_site", 1, 0)
    assert {action.get("play") for action in legal(state)} == {"bank"}
    assert DONE not in legal(state) and {"pass": True} not in legal(state)


# --- shopping complex ----------------------------------------------------------------


def test_shopping_complex_swaps_hands_with_a_chosen_player() -> None:
    hands = [["shopping_complex", "bank"], ["stadium"], ["temple", "port"]]
    state = table({(0, 0): up("factory")}, players=3, hands=hands)
    play(state, "shopping_complex", 1, 0)
    assert legal(state) == [{"player": 1}, {"player": 2}]
    choose(state, {"player": 2})
    assert hand(state, 2) == ["bank"]
    assert hand(state, 0) == ["housing", "housing", "housing", "port", "temple"]


# --- stadium -------------------------------------------------------------------------


def test_stadium_moves_one_or_all_tokens_of_an_adjacent_tile_onto_itself() -> None:
    """Decision #stadium."""
    state = table({(0, 0): up("factory", 0, 1, 1), (5, 5): up("factory", 1)},
                  hands=[["stadium", "stadium"], []])  # fmt: skip
    play(state, "stadium", 0, 1)
    assert legal(state) == [
        {"tile": [0, 0], "owner": "all"},
        {"tile": [0, 0], "owner": 0},
        {"tile": [0, 0], "owner": 1},
    ]
    choose(state, {"tile": [0, 0], "owner": 1})
    assert tokens_at(state, 0, 0) == [1, 1] and tokens_at(state, 0, 1) == [1, 1]


def test_stadium_may_take_all_of_them() -> None:
    """Decision #stadium."""
    state = table({(0, 0): up("factory", 0, 1, 1)}, hands=[["stadium"], []])
    play(state, "stadium", 0, 1)
    choose(state, {"tile": [0, 0], "owner": "all"})
    assert tokens_at(state, 0, 0) == [0, 0] and tokens_at(state, 0, 1) == [2, 2]


# --- temple --------------------------------------------------------------------------


def test_temple_plays_a_tile_from_another_players_hand_who_then_draws() -> None:
    """Decision #temple."""
    state = table(
        {(0, 0): up("factory")},
        players=3,
        hands=[["temple", "bank"], ["shopping_complex", "plaza"], []],
        deck=["capitol"] + ["housing"] * 20,
    )
    play(state, "temple", 1, 0)
    assert legal(state) == [{"player": 1}]  # player 2's hand is empty
    choose(state, {"player": 1})
    assert {a["play"] for a in legal(state)} == {"shopping_complex", "plaza"}
    play(state, "shopping_complex", 2, 0)
    assert tokens_at(state, 2, 0) == [1, 0, 0]
    choose(state, {"player": 1})  # the Shopping Complex swaps before player 1 draws
    assert hand(state, 1) == ["bank", "capitol"]
    assert "plaza" in hand(state, 0)


# --- transit station -----------------------------------------------------------------


def test_transit_station_swaps_two_tiles_with_their_tokens() -> None:
    """Decision #transit-station."""
    state = table({(0, 0): up("bank", 1), (1, 0): down("capitol")},
                  hands=[["transit_station"], []])  # fmt: skip
    play(state, "transit_station", 0, 1)
    assert legal(state) == [tile(0, 0), tile(0, 1), tile(1, 0)]
    choose(state, tile(0, 0))
    assert legal(state) == [tile(0, 1), tile(1, 0)]
    choose(state, tile(1, 0))
    assert kind_at(state, 1, 0) == "bank" and tokens_at(state, 1, 0) == [0, 1]
    assert kind_at(state, 0, 0) == "capitol" and not state.board[cell(0, 0)].face_up


def test_every_kind_has_a_test_here() -> None:
    import inspect
    import sys

    names = {name for name, _ in inspect.getmembers(sys.modules[__name__], inspect.isfunction)}
    from engine.megalopolis.components import KIND_NAMES

    for kind in KIND_NAMES:
        words = kind.split("_")
        assert any(all(word in name for word in words) for name in names), kind
