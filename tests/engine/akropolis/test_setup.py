"""Setup: the tiles in play, the stacks and the site, the starting cities and stones."""

from __future__ import annotations

import pytest

from engine.akropolis import Akropolis
from engine.akropolis.components import PLAZA, QUARRY, TILES
from engine.core import InvalidOptions
from engine.hexgrid import encode
from engine.rng import SplitMix64


def dealt(game: Akropolis, seed: int, players: int, **options: bool) -> list[int]:
    """Every tile in play, in dealing order: the site, then the stacks from the next one."""
    state = game.new_state(seed, players, dict(options))
    return state.site + [tile for stack in state.stacks for tile in stack]


@pytest.mark.parametrize(("players", "count"), [(2, 37), (3, 49), (4, 61)])
def test_it_plays_the_tiles_for_the_player_count(game: Akropolis, players: int, count: int) -> None:
    tiles = dealt(game, 5, players)
    assert len(tiles) == count
    assert set(tiles) == {t.id for t in TILES.values() if t.min_players <= players}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_deals_11_stacks_of_one_more_tile_than_players(game: Akropolis, players: int) -> None:
    state = game.new_state(5, players, {})
    assert [len(stack) for stack in state.stacks] == [players + 1] * 11


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_site_starts_with_two_more_tiles_than_players(game: Akropolis, players: int) -> None:
    assert len(game.new_state(5, players, {}).site) == players + 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_same_seed_deals_the_same_order(game: Akropolis, players: int) -> None:
    assert dealt(game, 77, players) == dealt(game, 77, players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_different_seed_deals_a_different_order(game: Akropolis, players: int) -> None:
    orders = {tuple(dealt(game, seed, players)) for seed in range(10)}
    assert len(orders) == 10


def test_the_deal_is_shuffled(game: Akropolis) -> None:
    assert dealt(game, 1, 4) != list(range(1, 62))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_deals_in_the_order_of_the_seeds_splitmix64_shuffle(
    game: Akropolis, players: int
) -> None:
    # Replays depend on this exact order: sorted tile ids, shuffled by SplitMix64(seed).
    tiles = sorted(t.id for t in TILES.values() if t.min_players <= players)
    SplitMix64(31337).shuffle(tiles)
    assert dealt(game, 31337, players) == tiles


@pytest.mark.parametrize(("players", "stacks"), [(2, 19), (3, 14)])
def test_all_tiles_deals_all_61_tiles(game: Akropolis, players: int, stacks: int) -> None:
    """Decision #all-tiles-stacks."""
    state = game.new_state(9, players, {"all_tiles": True})
    assert [len(stack) for stack in state.stacks] == [players + 1] * stacks
    assert len(state.site) == players + 2
    assert sorted(dealt(game, 9, players, all_tiles=True)) == list(range(1, 62))


def test_all_tiles_is_rejected_for_4_players(game: Akropolis) -> None:
    with pytest.raises(InvalidOptions, match="all_tiles is only for 2/3 players"):
        game.new_state(1, 4, {"all_tiles": True})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_starts_with_the_starting_tile(game: Akropolis, players: int) -> None:
    state = game.new_state(3, players, {})
    starting = {
        encode(0, 0): (1, PLAZA["house"], 1),
        encode(1, 0): (1, QUARRY, 0),
        encode(0, -1): (1, QUARRY, 0),
        encode(-1, 1): (1, QUARRY, 0),
    }
    for city in state.cities:
        assert city.top == starting
        assert city.tiles == 1
        assert len(set(city.tile_at.values())) == 1


@pytest.mark.parametrize(("players", "stones"), [(2, [1, 2]), (3, [1, 2, 3]), (4, [1, 2, 3, 4])])
def test_starting_stones_go_1_2_3_4_by_seat(
    game: Akropolis, players: int, stones: list[int]
) -> None:
    """Decision #starting-stones."""
    assert game.new_state(3, players, {}).stones == stones


def test_seat_0_moves_first(game: Akropolis) -> None:
    """Decision #first-architect."""
    state = game.new_state(3, 3, {})
    assert game.current_player(state) == 0
    assert game.turn_number(state) == 0


def test_options_default_to_off(game: Akropolis) -> None:
    state = game.new_state(3, 2, {})
    assert state.options == dict.fromkeys(
        ("all_tiles", "houses", "markets", "barracks", "temples", "gardens"), False
    )


def test_variants_can_be_combined(game: Akropolis) -> None:
    state = game.new_state(3, 4, {"houses": True, "gardens": True})
    assert state.options["houses"] and state.options["gardens"]
    assert not state.options["markets"]


def test_it_rejects_an_unknown_option(game: Akropolis) -> None:
    with pytest.raises(InvalidOptions, match=r"unknown option.*castles"):
        game.new_state(1, 2, {"castles": True})


@pytest.mark.parametrize("value", [1, "true", None])
def test_it_rejects_an_option_that_is_not_a_boolean(game: Akropolis, value: object) -> None:
    with pytest.raises(InvalidOptions, match="houses must be true or false"):
        game.new_state(1, 2, {"houses": value})


@pytest.mark.parametrize("players", [0, 1, 5, -2, "2", 2.0, True, None])
def test_it_rejects_a_bad_player_count(game: Akropolis, players: object) -> None:
    with pytest.raises(InvalidOptions, match="2 to 4 players"):
        game.new_state(1, players, {})  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, 2**64, "7", 7.0, True, None])
def test_it_rejects_a_bad_seed(game: Akropolis, seed: object) -> None:
    with pytest.raises(InvalidOptions, match="seed must be an integer"):
        game.new_state(seed, 2, {})  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [0, 2**64 - 1])
def test_it_accepts_the_extreme_seeds(game: Akropolis, seed: int) -> None:
    assert len(game.new_state(seed, 2, {}).site) == 4
