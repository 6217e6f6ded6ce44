"""A turn: 2 draws or 3 builds, forgone actions for cards, amphorae, drawn buildings,
payment decisions and map extension, one decision at a time."""

from __future__ import annotations

import pytest

from engine.attika import AttikaState
from engine.core import IllegalAction
from tests.engine.attika.support import (
    GAME,
    b,
    build,
    cards,
    cell,
    on_board,
    on_top,
    painted,
    payment,
    put,
    set_hand,
    state_json,
)


def legal(state: AttikaState) -> list[dict[str, object]]:
    return list(GAME.legal_actions(state))


def types(state: AttikaState) -> set[object]:
    return {action["type"] for action in legal(state)}


@pytest.fixture
def roads() -> AttikaState:
    """Seat 0 has a road on (0, 0) and the three others on its board, no cards; every
    other building is in its stacks. The map is blank."""
    state = painted()
    seat = state.seats[0]
    for building in list(seat.board):
        seat.board.remove(building)
        seat.stacks[1].append(building)
    put(state, 0, "road_1", 0, 0)
    on_board(state, 0, "road_2", "road_3", "road_4")
    set_hand(state, 0, "")
    return state


def test_a_turn_is_three_builds(roads: AttikaState) -> None:
    on_board(roads, 0, "quarry")
    set_hand(roads, 0, "MMH")
    GAME.apply(roads, build("road_2", 1, 0))  # free next to the road before
    GAME.apply(roads, build("road_3", 2, 0))
    assert GAME.current_player(roads) == 0
    GAME.apply(roads, build("quarry", 0, 1))
    assert GAME.current_player(roads) == 1
    assert len(roads.seats[0].placed) == 4 and roads.seats[0].hand == cards("")


def test_a_turn_is_two_draws(roads: AttikaState) -> None:
    # with no cards nothing drawn can be built, so each draw goes to the board by itself
    GAME.apply(roads, {"type": "draw", "stack": 1})
    assert GAME.current_player(roads) == 0 and roads.actions_left == 1
    GAME.apply(roads, {"type": "draw", "stack": 2})
    assert GAME.current_player(roads) == 1
    assert len(roads.seats[0].board) == 5 and roads.seats[0].hand == cards("")


def test_the_first_draw_or_build_fixes_the_turns_action(roads: AttikaState) -> None:
    """Decision #turn-action."""
    GAME.apply(roads, build("road_2", 1, 0))
    assert "draw" not in types(roads)
    with pytest.raises(IllegalAction, match="action is to build"):
        GAME.apply(roads, {"type": "draw", "stack": 1})


def test_forgoing_the_whole_turn_takes_three_cards(roads: AttikaState) -> None:
    """Decision #forgone-cards."""
    GAME.apply(roads, {"type": "end_turn"})
    assert sum(roads.seats[0].hand) == 3 and GAME.current_player(roads) == 1


def test_each_forgone_build_or_draw_takes_one_card(roads: AttikaState) -> None:
    """Decision #forgone-cards."""
    GAME.apply(roads, build("road_2", 1, 0))
    GAME.apply(roads, {"type": "end_turn"})
    assert sum(roads.seats[0].hand) == 2
    GAME.apply(roads, {"type": "end_turn"})  # seat 1 forgoes its turn
    GAME.apply(roads, {"type": "draw", "stack": 1})
    GAME.apply(roads, {"type": "end_turn"})
    assert sum(roads.seats[0].hand) == 3


def test_a_drawn_building_can_be_built_at_once(roads: AttikaState) -> None:
    """Decision #drawn-building."""
    on_top(roads, 0, 1, "fortress")
    set_hand(roads, 0, "MMMH")
    GAME.apply(roads, {"type": "draw", "stack": 1})
    assert roads.pending is not None and roads.pending.kind == "drawn"
    assert {"type": "keep"} in legal(roads)
    GAME.apply(roads, build("fortress", 1, 0))
    assert roads.seats[0].placed[b("fortress")] == cell(1, 0)
    assert b("fortress") not in roads.seats[0].board and roads.seats[0].hand == cards("")
    assert roads.actions_left == 1 and roads.pending is None


def test_only_the_drawn_building_may_be_built_before_it_is_kept(roads: AttikaState) -> None:
    """Decision #drawn-building."""
    set_hand(roads, 0, "MMMMMMMMHHHHFFFFWWWW")
    GAME.apply(roads, {"type": "draw", "stack": 0})
    drawn = roads.pending.building if roads.pending else -1
    assert {a["building"] for a in legal(roads) if a["type"] == "build"} == {
        GAME.state_to_json(roads)["pending"]["building"]
    }
    with pytest.raises(IllegalAction, match="only the drawn"):
        GAME.apply(roads, build("road_2", 1, 0))
    GAME.apply(roads, {"type": "keep"})
    assert drawn in roads.seats[0].board


def test_a_payment_with_a_choice_is_its_own_decision(roads: AttikaState) -> None:
    """Decision #payment-decision."""
    set_hand(roads, 0, "MMHHFW")
    on_board(roads, 0, "quarry")  # M M H, on a blank hex next to the road
    GAME.apply(roads, build("quarry", 0, 1))
    assert roads.pending is not None and roads.pending.kind == "pay"
    assert types(roads) == {"pay"}
    assert payment("MMH") in legal(roads) and payment("MHHF") in legal(roads)
    with pytest.raises(IllegalAction, match="not an exact payment"):
        GAME.apply(roads, payment("MMHH"))
    GAME.apply(roads, payment("MHHF"))
    assert roads.seats[0].hand == cards("MW") and roads.discard == cards("MHHF")


def test_a_payment_without_a_choice_is_made_at_once(roads: AttikaState) -> None:
    """Decision #payment-decision, #forced-decisions."""
    set_hand(roads, 0, "MMH")
    on_board(roads, 0, "quarry")
    GAME.apply(roads, build("quarry", 0, 1))
    assert roads.pending is None and roads.seats[0].hand == cards("")


def test_joining_a_group_earns_an_amphora_that_buys_a_fourth_build(roads: AttikaState) -> None:
    """Decision #amphora-buys."""
    on_board(roads, 0, "quarry")
    set_hand(roads, 0, "MMH")
    for q in (1, 2, 3):
        GAME.apply(roads, build(f"road_{q + 1}", q, 0))
    assert roads.seats[0].amphorae == 1 and roads.amphora_supply == 14
    assert GAME.current_player(roads) == 0 and roads.actions_left == 0
    GAME.apply(roads, {"type": "amphora", "use": "action"})
    GAME.apply(roads, build("quarry", 0, 1))
    assert GAME.current_player(roads) == 1 and roads.amphora_supply == 15


def test_an_amphora_spent_on_an_action_goes_back_to_the_supply(roads: AttikaState) -> None:
    """Decision #amphora-buys."""
    roads.seats[0].amphorae = 1
    roads.amphora_supply -= 1
    assert {"type": "amphora", "use": "action"} not in legal(roads)  # no action chosen yet
    GAME.apply(roads, build("road_2", 1, 0))
    GAME.apply(roads, {"type": "amphora", "use": "action"})
    assert roads.actions_left == 3 and roads.amphora_supply == 15
    assert roads.seats[0].amphorae == 0


def test_after_an_amphora_traded_for_a_card_no_draw_or_build(roads: AttikaState) -> None:
    """Decision #card-ends-building."""
    roads.seats[0].amphorae = 2
    roads.amphora_supply -= 2
    GAME.apply(roads, build("road_2", 1, 0))
    GAME.apply(roads, {"type": "amphora", "use": "card"})
    assert sum(roads.seats[0].hand) == 1 and roads.took_cards
    assert types(roads) == {"amphora", "end_turn"}
    assert {"type": "amphora", "use": "action"} not in legal(roads)
    with pytest.raises(IllegalAction, match="after taking a landscape card"):
        GAME.apply(roads, build("road_3", 2, 0))
    GAME.apply(roads, {"type": "end_turn"})  # two builds left: two more cards
    assert sum(roads.seats[0].hand) == 3


def test_emptying_a_stack_asks_for_a_new_map_tile(roads: AttikaState) -> None:
    """Decision #map-extension."""
    seat = roads.seats[0]
    seat.stacks[2] = seat.stacks[2][:1]
    next_tile = roads.tile_pile[0]
    hexes = len(roads.caches.index.symbol_at)
    GAME.apply(roads, {"type": "draw", "stack": 2})  # drawn, unaffordable: kept
    assert roads.pending is not None and roads.pending.kind == "tile"
    assert roads.pending.tile == next_tile
    assert types(roads) == {"extend"}
    place = legal(roads)[0]
    GAME.apply(roads, place)
    assert len(roads.caches.index.symbol_at) == hexes + 7
    assert roads.tiles[-1] == (next_tile, place["q"], place["r"], place["rotation"])
    assert roads.tile_pile[0] != next_tile and roads.pending is None


def test_emptying_a_stack_with_no_tile_left_does_nothing(roads: AttikaState) -> None:
    """Decision #map-extension."""
    roads.seats[0].stacks[2] = roads.seats[0].stacks[2][:1]
    roads.tile_pile = []
    GAME.apply(roads, {"type": "draw", "stack": 2})
    assert roads.pending is None and roads.actions_left == 1


def test_the_deck_is_reshuffled_from_the_discard_when_it_runs_out(roads: AttikaState) -> None:
    roads.deck = [0]
    roads.discard = cards("HHFW")
    before = roads.rng_state
    GAME.apply(roads, {"type": "end_turn"})
    hand = roads.seats[0].hand
    assert sum(hand) == 3 and hand[0] == 1  # the mountain, then two reshuffled cards
    assert roads.discard == [0, 0, 0, 0] and len(roads.deck) == 2
    left = [hand[i] - (i == 0) + roads.deck.count(i) for i in range(4)]
    assert left == cards("HHFW")
    assert roads.rng_state != before


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "draw", "stack": 4}, "not a non-empty stack"),
        (build("quarry", 1, 0), "not on your board"),
        (build("road_2", 0, 0), "not a free map space"),
        (build("road_2", 0, 5), "not a free map space"),  # a shrine
        (build("road_2", 9, 9), "not a free map space"),  # off the map
        (build("road_2", 3, 0), "costs more than your cards"),
        ({"type": "keep"}, "nothing to keep"),
        ({"type": "pay", "cards": {"mountain": 0, "hill": 0, "forest": 0, "water": 0}}, "pay"),
        ({"type": "extend", "q": 0, "r": 9, "rotation": 0}, "nothing to extend"),
        ({"type": "amphora", "use": "card"}, "no amphora"),
        ({"type": "dance"}, "type is one of"),
        ({"type": "draw"}, "exactly the fields"),
        ({"type": "draw", "stack": True}, "must be an integer"),
        ({"type": "build", "building": "palace", "q": 0, "r": 0}, "unknown building"),
        ("end_turn", "an Attika action is an object"),
    ],
)
def test_illegal_actions_are_refused_and_change_nothing(
    roads: AttikaState, action: object, message: str
) -> None:
    before = state_json(roads)
    with pytest.raises(IllegalAction, match=message):
        GAME.apply(roads, action)
    assert state_json(roads) == before


def test_emptying_the_main_stack_also_asks_for_a_new_map_tile(roads: AttikaState) -> None:
    """Decision #map-extension."""
    roads.seats[0].stacks[0] = roads.seats[0].stacks[0][:1]
    GAME.apply(roads, {"type": "draw", "stack": 0})
    if roads.pending is not None and roads.pending.kind == "drawn":
        GAME.apply(roads, {"type": "keep"})
    assert roads.pending is not None and roads.pending.kind == "tile"


def test_the_last_building_of_a_stack_must_be_built_when_it_can_be(roads: AttikaState) -> None:
    """Decision #last-of-a-stack: the text has the last building of a stack placed on the
    map, paying its cost, before the map grows."""
    on_top(roads, 0, 1, "fortress")
    seat = roads.seats[0]
    seat.stacks[1] = seat.stacks[1][:1]
    set_hand(roads, 0, "MMMH")
    GAME.apply(roads, {"type": "draw", "stack": 1})
    assert roads.pending is not None and roads.pending.kind == "drawn"
    assert types(roads) == {"build"}
    with pytest.raises(IllegalAction, match="last building of its stack"):
        GAME.apply(roads, {"type": "keep"})
    GAME.apply(roads, build("fortress", 1, 0))
    assert seat.placed[b("fortress")] == cell(1, 0)
    assert roads.pending is not None and roads.pending.kind == "tile"


def test_the_last_building_of_a_stack_is_kept_when_it_cannot_be_built(
    roads: AttikaState,
) -> None:
    """Decision #last-of-a-stack."""
    on_top(roads, 0, 1, "fortress")
    roads.seats[0].stacks[1] = roads.seats[0].stacks[1][:1]
    GAME.apply(roads, {"type": "draw", "stack": 1})  # no cards: kept without asking
    assert b("fortress") in roads.seats[0].board
    assert roads.pending is not None and roads.pending.kind == "tile"


def test_the_last_building_must_be_built_also_with_no_map_tile_left(
    roads: AttikaState,
) -> None:
    """Decision #last-of-a-stack."""
    on_top(roads, 0, 1, "fortress")
    roads.seats[0].stacks[1] = roads.seats[0].stacks[1][:1]
    roads.tile_pile = []
    set_hand(roads, 0, "MMMH")
    GAME.apply(roads, {"type": "draw", "stack": 1})
    assert types(roads) == {"build"}
