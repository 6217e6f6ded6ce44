"""engine.akropolis.components: the tile data and the hex codes."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.akropolis.components import (
    COLORS,
    DISTRICT,
    PLAZA,
    PLAZA_STARS,
    QUARRY,
    STARS_OF_CODE,
    STARTING_STONES,
    TILE_COUNT_BY_PLAYERS,
    TILES,
    describe_hex,
    hex_code,
)


def test_there_are_61_tiles_numbered_1_to_61() -> None:
    assert sorted(TILES) == list(range(1, 62))


def test_tiles_in_play_are_37_49_61_by_player_count() -> None:
    assert TILE_COUNT_BY_PLAYERS == {2: 37, 3: 49, 4: 61}
    assert Counter(tile.min_players for tile in TILES.values()) == {2: 37, 3: 12, 4: 12}


def test_every_tile_has_three_hexes() -> None:
    assert all(len(tile.hexes) == 3 for tile in TILES.values())


def test_plaza_stars_are_those_of_the_rules_data() -> None:
    assert PLAZA_STARS == {"house": 1, "market": 2, "barracks": 2, "temple": 2, "garden": 3}
    assert [STARS_OF_CODE[PLAZA[color]] for color in COLORS] == [1, 2, 2, 2, 3]
    assert all(STARS_OF_CODE[DISTRICT[color]] == 0 for color in COLORS)
    assert STARS_OF_CODE[QUARRY] == 0


def test_starting_stones_by_seat_are_1_to_4() -> None:
    """Decision #starting-stones."""
    assert STARTING_STONES == (1, 2, 3, 4)


@pytest.mark.parametrize(
    ("kind", "color"),
    [("quarry", None), *((kind, color) for kind in ("plaza", "district") for color in COLORS)],
)
def test_hex_codes_describe_back_to_their_kind_and_colour(kind: str, color: str | None) -> None:
    assert describe_hex(hex_code(kind, color)) == (kind, color)


def test_every_hex_has_its_own_code() -> None:
    codes = [QUARRY, *DISTRICT.values(), *PLAZA.values()]
    assert len(set(codes)) == 11


@pytest.mark.parametrize(
    ("kind", "color", "message"),
    [
        ("quarry", "house", "a quarry has no colour"),
        ("tower", "house", "kind must be one of"),
        ("plaza", None, "needs a colour"),
        ("district", "castle", "needs a colour"),
    ],
)
def test_it_rejects_a_malformed_hex(kind: str, color: str | None, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        hex_code(kind, color)
