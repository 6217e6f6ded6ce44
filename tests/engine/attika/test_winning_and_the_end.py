"""Winning at once (all 30 buildings, or two shrines linked), the end when no one can
move, and the ranking."""

from __future__ import annotations

from engine.attika import AttikaState
from engine.attika.components import BUILDINGS
from tests.engine.attika.support import GAME, b, build, on_board, painted, put, set_hand

SHRINES = ((0, 3), (0, -3))


def linked_position() -> AttikaState:
    """Player 0's chain runs from next to one shrine to one hex short of the other."""
    state = painted(shrines=SHRINES)
    for name, r in (("road_1", 2), ("road_2", 1), ("quarry", 0), ("road_3", -1)):
        put(state, 0, name, 0, r)
    on_board(state, 0, "road_4")
    set_hand(state, 0, "")
    return state


def test_linking_two_shrines_with_a_chain_of_own_buildings_wins_at_once() -> None:
    """Decision #shrine-link."""
    state = linked_position()
    assert not GAME.is_over(state)
    GAME.apply(state, build("road_4", 0, -2))  # free next to road_3
    assert GAME.is_over(state)
    assert state.winner == 0 and state.win_reason == "shrines"
    result = GAME.result(state)
    assert result.ranks[0] == 1 and result.details[0]["win_reason"] == "shrines"
    assert len(GAME.legal_actions(state)) == 0


def test_another_players_building_breaks_the_chain() -> None:
    """Decision #shrine-link."""
    state = painted(shrines=SHRINES)
    for name, r in (("road_1", 2), ("road_2", 1), ("quarry", -1), ("road_3", -2)):
        put(state, 0, name, 0, r)
    put(state, 1, "road_1", 0, 0)
    assert not GAME.is_over(state)


def test_a_chain_touching_one_shrine_twice_is_not_a_link() -> None:
    """Decision #shrine-link."""
    state = painted(shrines=((0, 0), (4, -4)))
    put(state, 0, "road_1", 1, 0)
    put(state, 0, "road_2", 0, 1)
    put(state, 0, "road_3", 1, 1)
    assert not GAME.is_over(state)


def test_building_the_thirtieth_building_wins_at_once() -> None:
    state = painted(radius=6, shrines=((30, 0), (-30, 0)))
    names = [building.id for building in BUILDINGS]
    # 29 buildings on every other hex of every other row: no two touch, no group joins
    spots = [(q, r) for q in range(-6, 7, 2) for r in range(-6, 7, 2) if abs(q + r) <= 6]
    for name, (q, r) in zip(names[:-1], spots, strict=False):
        put(state, 0, name, q, r)
    assert len(state.seats[0].placed) == 29 and not GAME.is_over(state)
    state.seats[0].board = []
    on_board(state, 0, names[-1])
    set_hand(state, 0, "MHFW" * 20)
    GAME.apply(state, build(names[-1], 1, 0))
    if state.pending is not None:
        GAME.apply(state, GAME.legal_actions(state)[0])
    assert GAME.is_over(state) and state.winner == 0
    assert state.win_reason == "all_buildings"
    assert GAME.result(state).scores[0] == 30


def stalled() -> AttikaState:
    """No card left anywhere, no stack left, and boards no one can pay for (the buildings
    not mentioned are out of the game for these tests)."""
    state = painted(players=3)
    put(state, 0, "road_4", 2, -2)
    put(state, 1, "road_1", 4, 0)
    put(state, 2, "road_1", -4, 0)
    put(state, 2, "road_2", -4, 1)
    state.deck, state.discard = [], [0, 0, 0, 0]
    for seat in state.seats:
        seat.hand = [0, 0, 0, 0]
        seat.stacks = [[], [], [], []]
    state.seats[0].board = sorted([b("agora"), b("temple")])
    state.seats[1].board = [b("agora")]
    state.seats[2].board = []
    state.rebuild_caches()
    return state


def test_when_no_card_is_left_and_no_one_can_act_the_game_ends() -> None:
    """Decision #the-end."""
    state = stalled()
    GAME.apply(state, {"type": "end_turn"})  # seat 0's turn; the others pass by themselves
    assert GAME.is_over(state) and state.winner is None
    result = GAME.result(state)
    # most buildings on the map first; then fewer buildings left on the board
    assert result.scores == [1, 1, 2]
    assert result.ranks == [3, 2, 1]  # seats 0 and 1 tie on the map; seat 1 holds fewer


def test_ties_on_the_map_go_to_fewer_buildings_on_the_board() -> None:
    """Decision #ranking."""
    state = stalled()
    state.seats[0].placed[b("road_1")] = state.seats[2].placed[b("road_1")]  # scores only
    state.seats[1].board = []
    GAME.apply(state, {"type": "end_turn"})
    result = GAME.result(state)
    assert result.scores == [2, 1, 2]
    assert result.ranks == [2, 3, 1]  # seat 0 still holds two buildings, seat 2 none


def test_a_voluntary_pass_counts_toward_the_end_when_no_card_is_left() -> None:
    """Decision #the-end."""
    state = stalled()
    state.seats[0].board.append(b("road_3"))  # free next to road_4: seat 0 could build
    state.rebuild_caches()
    assert any(a["type"] == "build" for a in GAME.legal_actions(state))
    GAME.apply(state, {"type": "end_turn"})
    assert GAME.is_over(state)


def test_passing_while_cards_remain_does_not_end_the_game() -> None:
    """Decision #the-end."""
    state = stalled()
    state.discard = [4, 0, 0, 0]
    state.seats[1].stacks[1] = [b("road_2")]  # seat 1 has a decision to make
    GAME.apply(state, {"type": "end_turn"})
    assert not GAME.is_over(state) and state.passes == 0
    assert GAME.current_player(state) == 1 and sum(state.seats[0].hand) == 3
