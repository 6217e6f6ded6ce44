"""engine.legal and engine.setup_checks, as every game uses them."""

from __future__ import annotations

from typing import Any

import pytest

from engine import get_game
from engine.core import InvalidOptions
from engine.legal import LegalActions
from engine.rng import SplitMix64

GAMES = ("akropolis", "architekton", "attika", "megalopolis")


def midgame_legal_actions(game_id: str, turns: int = 12) -> LegalActions:
    game = get_game(game_id)
    state = game.new_state(7, 2, {})
    rng = SplitMix64(7)
    for _ in range(turns):
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.below(len(legal))])
    legal = game.legal_actions(state)
    assert isinstance(legal, LegalActions)
    return legal


@pytest.mark.parametrize("game_id", GAMES)
def test_legal_actions_read_like_the_list_of_them(game_id: str) -> None:
    legal = midgame_legal_actions(game_id)
    listed = list(legal)
    assert len(listed) == len(legal) > 1
    assert [legal[i] for i in range(-len(legal), len(legal))] == listed + listed
    assert legal[1:] == listed[1:]
    assert legal[::-2] == listed[::-2]
    for index in (len(legal), -len(legal) - 1):
        with pytest.raises(IndexError):
            legal[index]


@pytest.mark.parametrize("game_id", GAMES)
def test_membership_parses_the_action(game_id: str) -> None:
    legal = midgame_legal_actions(game_id)
    assert all(action in legal for action in legal)
    not_actions: list[Any] = [None, 3, "pass", {}, {"tile": True}, [legal[0]]]
    assert not any(thing in legal for thing in not_actions)


@pytest.mark.parametrize(
    ("game_id", "players", "message"),
    [
        ("akropolis", 5, "Akropolis is for 2 to 4 players, not 5"),
        ("akropolis", 2.0, "Akropolis is for 2 to 4 players, not 2.0"),
        ("architekton", 3, "Architekton is for exactly 2 players, not 3"),
        ("attika", True, "Attika is for 2 to 4 players, not True"),
        ("megalopolis", 1, "Megalopolis is for 2 to 6 players, not 1"),
    ],
)
def test_every_game_names_its_player_counts(game_id: str, players: Any, message: str) -> None:
    with pytest.raises(InvalidOptions, match=f"^{message}$"):
        get_game(game_id).new_state(1, players, {})


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", [-1, 2**64, True, 1.5])
def test_every_game_takes_seeds_in_the_rngs_range_only(game_id: str, seed: Any) -> None:
    with pytest.raises(InvalidOptions, match=r"the seed must be an integer in \[0, 2\*\*64\)"):
        get_game(game_id).new_state(seed, 2, {})
