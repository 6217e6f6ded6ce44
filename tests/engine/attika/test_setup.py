"""Setup: the map, the shrines, each player's stacks, board and cards, all from the seed."""

from __future__ import annotations

import pytest

from engine.attika.components import (
    IS_MAIN,
    MAIN_BUILDINGS,
    REGULAR_BUILDINGS,
    SETUP_LAYOUTS,
    STARTING_HANDS,
)
from engine.core import InvalidOptions
from engine.hexgrid import encode
from tests.engine.attika.support import GAME, state_json


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_map_is_the_players_layout_of_unrotated_tiles_and_shrines(players: int) -> None:
    state = GAME.new_state(11, players, {})
    layout = SETUP_LAYOUTS[players]
    assert [(q, r) for _, q, r, _ in state.tiles] == list(layout.tile_centres)
    assert all(rotation == 0 for *_, rotation in state.tiles)
    assert state.shrines == [encode(q, r) for q, r in layout.shrines]
    placed = {tile for tile, *_ in state.tiles}
    assert len(placed) == len(layout.tile_centres)
    assert sorted(placed | set(state.tile_pile)) == list(range(22))
    assert len(state.caches.index.symbol_at) == 7 * len(layout.tile_centres)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_turns_up_the_top_building_of_each_of_four_stacks(players: int) -> None:
    state = GAME.new_state(12, players, {})
    for seat in state.seats:
        main, *others = seat.stacks
        assert len(main) == 5 and all(IS_MAIN[b] for b in main)
        assert [len(stack) for stack in others] == [7, 7, 7]
        assert len(seat.board) == 4 and sum(IS_MAIN[b] for b in seat.board) == 1
        everything = sorted(seat.board + [b for stack in seat.stacks for b in stack])
        assert everything == sorted(MAIN_BUILDINGS + REGULAR_BUILDINGS)
        assert not seat.placed and seat.amphorae == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_starting_hands_grow_by_seat_and_the_rest_is_the_deck(players: int) -> None:
    """Decision #first-player."""
    state = GAME.new_state(13, players, {})
    assert [sum(seat.hand) for seat in state.seats] == list(STARTING_HANDS[:players])
    assert len(state.deck) == 60 - sum(STARTING_HANDS[:players])
    assert state.discard == [0, 0, 0, 0]
    assert state.amphora_supply == 15
    assert state.current == 0 and state.turn == 0 and state.pending is None


def test_the_seed_decides_everything() -> None:
    assert state_json(GAME.new_state(5, 3, {})) == state_json(GAME.new_state(5, 3, {}))
    assert state_json(GAME.new_state(5, 3, {})) != state_json(GAME.new_state(6, 3, {}))


@pytest.mark.parametrize("players", [1, 5, 2.0, "2"])
def test_it_rejects_a_wrong_player_count(players: object) -> None:
    with pytest.raises(InvalidOptions, match="2 to 4 players"):
        GAME.new_state(1, players, {})  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, 2**64, True, 1.5])
def test_it_rejects_a_bad_seed(seed: object) -> None:
    with pytest.raises(InvalidOptions, match="seed"):
        GAME.new_state(seed, 2, {})  # type: ignore[arg-type]


def test_it_has_no_options() -> None:
    assert GAME.options == ()
    with pytest.raises(InvalidOptions, match="unknown option"):
        GAME.new_state(1, 2, {"all_tiles": True})
