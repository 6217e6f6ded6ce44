"""Each game's legal actions as steps to click: every action of every position of a
played game is told apart by its steps, the steps are well formed, and they say what
the action does (Akropolis' second cell is the rotation's)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agon.human_games.targets import targets_for
from agon.human_games.targets.steps import plain_targets
from engine.bots import builtin_bot
from engine.registry import get_game

GAMES = [("akropolis", 2), ("akropolis", 4), ("attika", 3), ("architekton", 2), ("megalopolis", 4)]


def positions(game_id: str, players: int, seed: int) -> Any:
    game = get_game(game_id)
    state = game.new_state(seed, players, {})
    bots = [builtin_bot("random", game_id, seed, seat) for seat in range(players)]
    while not game.is_over(state):
        seat = game.current_player(state)
        legal = list(game.legal_actions(state))
        observation = game.observation(state, seat)
        yield observation, legal
        game.apply(state, bots[seat].act(observation, legal))


def identity(step: list[Any]) -> tuple[Any, ...]:
    """What the page tells steps apart by: a pick's key, a cell's coordinates."""
    return (step[0], step[1]) if step[0] == "pick" else (step[0], step[1], step[2])


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_every_action_of_a_whole_game_has_steps_of_its_own(game_id: str, players: int) -> None:
    kinds = set()
    for observation, legal in positions(game_id, players, seed=11):
        shown = targets_for(game_id, observation, legal).to_json()
        assert shown["board"] in ("hex", "square")
        assert len(shown["steps"]) == len(legal)
        paths = [tuple(identity(step) for step in steps) for steps in shown["steps"]]
        assert len(set(paths)) == len(paths), "two actions with the same steps"
        # No action's steps are the start of another's: the page knows when one is chosen.
        starts = {path[:k] for path in paths for k in range(1, len(path))}
        assert not starts & set(paths)
        for steps in shown["steps"]:
            assert steps, "an action with nothing to click"
            for step in steps:
                kinds.add(step[0])
                assert step[0] in ("pick", "cell")
                assert 0 <= step[-1] < len(shown["labels"])
                if step[0] == "cell":
                    assert all(isinstance(v, int) for v in step[1:3])
        for cell in shown["cells"]:
            assert len(cell) == 4 and str(cell[3]).startswith("#")
        json.dumps(shown)  # all plain JSON
    assert kinds == {"pick", "cell"}


def test_akropolis_chooses_a_tile_its_hex_then_where_its_second_hex_goes() -> None:
    observation, legal = next(positions("akropolis", 2, seed=3))
    shown = targets_for("akropolis", observation, legal)
    directions = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    for action, (tile, first, second) in zip(legal, shown.steps, strict=True):
        assert tile[1] == f"tile-{action['tile']}"
        assert first[1:3] == [action["q"], action["r"]]
        dq, dr = directions[action["rotation"]]
        assert second[1:3] == [action["q"] + dq, action["r"] + dr]
    assert "free" in shown.steps[0][0][2]  # position 0 costs nothing


def test_a_game_without_a_module_gets_a_button_an_action() -> None:
    legal = [{"x": 1}, {"x": 2}]
    shown = plain_targets({}, legal).to_json()
    assert [shown["labels"][steps[0][2]] for steps in shown["steps"]] == ['{"x": 1}', '{"x": 2}']
    assert targets_for("no-such-game", {}, legal).to_json() == shown


def test_one_legal_action_is_one_choice() -> None:
    observation, legal = next(positions("architekton", 2, seed=5))
    shown = targets_for("architekton", observation, legal[:1]).to_json()
    assert len(shown["steps"]) == 1
