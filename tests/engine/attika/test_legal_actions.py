"""The legal-action sequence: lazy builds, indexing, membership and the compact form."""

from __future__ import annotations

import itertools
import json

import pytest

from engine.attika import AttikaState
from engine.attika.actions import LegalActions
from engine.attika.components import BUILDING_INDEX
from engine.hexgrid import encode
from tests.engine.attika.support import GAME, play_to_turn, random_game


@pytest.fixture(params=[(2, 0), (3, 17), (4, 60), (4, 121)])
def position(request: pytest.FixtureRequest) -> AttikaState:
    players, turn = request.param
    return play_to_turn(70 + players, players, turn)


def test_indexing_iteration_and_membership_agree(position: AttikaState) -> None:
    legal = GAME.legal_actions(position)
    listed = list(legal)
    assert len(listed) == len(legal) > 0
    assert [legal[i] for i in range(len(legal))] == listed
    assert legal[-1] == listed[-1] and legal[1:4] == listed[1:4]
    assert all(action in legal for action in listed)
    with pytest.raises(IndexError):
        legal[len(legal)]


def test_builds_come_after_the_other_actions_building_by_building_on_sorted_hexes(
    position: AttikaState,
) -> None:
    listed = list(GAME.legal_actions(position))
    kinds = [action["type"] for action in listed]
    if "build" in kinds:
        first = kinds.index("build")
        assert all(kind == "build" for kind in kinds[first:])
        keys = [(action["building"], encode(action["q"], action["r"])) for action in listed[first:]]
        for (name, cell), (next_name, next_cell) in itertools.pairwise(keys):
            assert name != next_name or cell < next_cell
    assert listed[-1]["type"] == "build" or {"type": "end_turn"} in listed or "pay" in kinds


def test_the_compact_form_expands_to_the_same_actions(position: AttikaState) -> None:
    legal = GAME.legal_actions(position)
    sent = json.loads(json.dumps(legal.compact()))
    assert set(sent) == {"actions", "builds"}
    expanded = GAME.legal_actions_from_json(sent)
    assert list(expanded) == list(legal) and len(expanded) == len(legal)
    assert all(action in expanded for action in list(legal)[:50])


def test_a_malformed_compact_form_is_refused() -> None:
    with pytest.raises(ValueError, match="compact legal actions"):
        LegalActions.from_json([{"type": "end_turn"}])


def test_something_is_always_legal_until_the_end() -> None:
    for state, chosen in random_game(5, 3):
        if chosen is None:
            assert len(GAME.legal_actions(state)) == 0
        else:
            assert len(GAME.legal_actions(state)) >= 2  # forced decisions are taken for you


def test_builds_name_only_buildings_the_player_can_build(position: AttikaState) -> None:
    seat = position.seats[GAME.current_player(position)]
    allowed = set(seat.board)
    if position.pending is not None and position.pending.kind == "drawn":
        allowed = {position.pending.building}
    for action in GAME.legal_actions(position):
        if action["type"] == "build":
            assert BUILDING_INDEX[action["building"]] in allowed


def test_a_copy_keeps_its_own_choices_while_the_original_plays_on() -> None:
    for seed in range(6):
        state = play_to_turn(seed, 4, 60)
        GAME.legal_actions(state)  # fill the caches before copying
        twin = GAME.copy_state(state)
        for _ in range(12):
            if GAME.is_over(state):
                break
            GAME.apply(state, GAME.legal_actions(state)[-1])
        player = GAME.current_player(twin)
        twin.seats[player].hand = [1, 1, 1, 0]  # small enough to price every group
        twin.rebuild_caches()
        fresh = GAME.state_from_json(GAME.state_to_json(twin))
        assert list(GAME.legal_actions(twin)) == list(GAME.legal_actions(fresh))
