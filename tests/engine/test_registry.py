"""engine.registry: game ids to game objects."""

from __future__ import annotations

import pytest

from engine.akropolis import AKROPOLIS
from engine.registry import UnknownGame, game_ids, get_game


def test_it_finds_akropolis_by_its_id() -> None:
    assert get_game("akropolis") is AKROPOLIS


def test_it_lists_the_game_ids_sorted() -> None:
    assert "akropolis" in game_ids()
    assert game_ids() == sorted(game_ids())


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownGame) as raised:
        get_game("chess")
    assert str(raised.value) == f"unknown game 'chess'; known games: {', '.join(game_ids())}"
