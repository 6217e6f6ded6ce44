"""Legal actions: the lazy product of affordable positions and legal placements, checked
against brute force (the legal triangles kept by `fast.city_cache` against a full scan:
fast/test_city_cache.py)."""

from __future__ import annotations

import json

import pytest

from engine.akropolis import Akropolis, AkropolisState
from engine.akropolis.actions import LegalActions
from engine.core import IllegalAction
from engine.hexgrid import DIRECTIONS, decode
from tests.engine.support import GAME, action, play_to_turn


def brute_force_legal_actions(state: AkropolisState) -> set[tuple[int, int, int, int]]:
    """Every site position x every cell within two steps of the city x every rotation,
    kept when `apply` accepts it on a copy of the state."""
    city = state.cities[GAME.current_player(state)]
    near = {decode(cell) for cell in city.top}
    for _ in range(2):
        near |= {(q + dq, r + dr) for q, r in near for dq, dr in DIRECTIONS}
    found = set()
    for position in range(len(state.site)):
        for q, r in near:
            for rotation in range(6):
                trial = GAME.copy_state(state)
                try:
                    GAME.apply(trial, action(position, q, r, rotation))
                except IllegalAction:
                    continue
                found.add((position, q, r, rotation))
    return found


def as_tuples(actions: LegalActions) -> list[tuple[int, int, int, int]]:
    return [(a["tile"], a["q"], a["r"], a["rotation"]) for a in actions]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (3, {}), (4, {}), (2, {"all_tiles": True})]
)
def test_legal_actions_equal_a_brute_force_enumeration(
    seed: int, players: int, options: dict[str, bool]
) -> None:
    turns = {2: 36, 3: 48, 4: 60}[players] if not options else 60
    for turn in (0, turns // 3, 2 * turns // 3, turns - 1):
        state = play_to_turn(seed, players, turn, options)
        legal = as_tuples(GAME.legal_actions(state))
        assert len(set(legal)) == len(legal), "an action is listed twice"
        assert set(legal) == brute_force_legal_actions(state), f"turn {turn}"


@pytest.fixture
def legal() -> LegalActions:
    state = play_to_turn(8, 3, 13)
    state.stones[GAME.current_player(state)] = 2
    return GAME.legal_actions(state)


def test_indexing_and_iteration_agree(legal: LegalActions) -> None:
    listed = list(legal)
    assert len(legal) == len(listed) > 0
    assert [legal[i] for i in range(len(legal))] == listed
    assert [legal[-i] for i in range(1, len(legal) + 1)] == listed[::-1]


def test_slices_agree_with_the_list(legal: LegalActions) -> None:
    listed = list(legal)
    assert legal[2:9] == listed[2:9]
    assert legal[::7] == listed[::7]
    assert legal[-5:] == listed[-5:]


@pytest.mark.parametrize("offset", [0, 1, 100])
def test_an_index_past_either_end_raises_index_error(legal: LegalActions, offset: int) -> None:
    with pytest.raises(IndexError):
        legal[len(legal) + offset]
    with pytest.raises(IndexError):
        legal[-len(legal) - 1 - offset]


def test_every_listed_action_is_in_and_others_are_not(legal: LegalActions) -> None:
    assert all(a in legal for a in legal)
    first = legal[0]
    assert {**first, "tile": 3} not in legal
    assert {**first, "q": first["q"] + 50} not in legal
    assert {**first, "rotation": True} not in legal
    assert not legal.__contains__("not an action")
    assert {**first, "extra": 1} not in legal


def test_the_order_is_by_site_position_first(legal: LegalActions) -> None:
    tiles = [a["tile"] for a in legal]
    assert tiles == sorted(tiles)
    assert set(tiles) == {0, 1, 2}
    per_tile = [
        [(a["q"], a["r"], a["rotation"]) for a in legal if a["tile"] == t] for t in (0, 1, 2)
    ]
    assert per_tile[0] == per_tile[1] == per_tile[2]


def test_the_compact_form_is_the_same_set_as_a_product(legal: LegalActions) -> None:
    compact = legal.compact()
    assert json.loads(json.dumps(compact)) == compact
    assert compact["tiles"] == [0, 1, 2]
    expanded = [
        {"tile": tile, "q": q, "r": r, "rotation": rotation}
        for tile in compact["tiles"]
        for q, r, rotation in compact["placements"]
    ]
    assert expanded == list(legal)


def test_the_compact_form_reads_back_into_the_same_actions(
    game: Akropolis, legal: LegalActions
) -> None:
    rebuilt = game.legal_actions_from_json(legal.compact())
    assert len(rebuilt) == len(legal)
    assert list(rebuilt) == list(legal)


def test_legal_actions_are_plain_json(legal: LegalActions) -> None:
    listed = list(legal)
    assert json.loads(json.dumps(listed)) == listed


def test_there_are_no_legal_actions_once_the_game_is_over(game: Akropolis) -> None:
    state = play_to_turn(5, 2, 10**6)
    assert game.is_over(state)
    assert len(game.legal_actions(state)) == 0
    assert list(game.legal_actions(state)) == []
