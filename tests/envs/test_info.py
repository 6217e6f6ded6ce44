"""The env's info: the observation JSON is built only when read, reads as a plain dict
however it is read, and is refused once the env has moved past its turn."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest

from agon_bot.envs import aec_env, gym_env
from agon_bot.envs.info import LazyInfo, StaleInfo
from tests.envs.support import GAMES


def counting() -> tuple[LazyInfo, list[int]]:
    calls: list[int] = []

    def build() -> dict[str, Any]:
        calls.append(1)
        return {"turn": 3}

    info = LazyInfo({"legal": [1, 2]})
    info.defer("observation_json", build)
    return info, calls


def test_a_deferred_entry_is_built_once_on_first_read() -> None:
    info, calls = counting()
    assert "observation_json" in info and len(info) == 2
    assert calls == []
    assert info["observation_json"] == {"turn": 3}
    assert info.get("observation_json") == {"turn": 3}
    assert calls == [1]


@pytest.mark.parametrize(
    "read",
    [
        dict,
        lambda info: {**info},
        lambda info: dict(info.items()),
        lambda info: json.loads(json.dumps(info)),
        copy.deepcopy,
        lambda info: pickle.loads(pickle.dumps(info)),  # noqa: S301 - our own bytes
        lambda info: info | {},
        lambda info: {k: info[k] for k in info},
    ],
)
def test_every_way_of_reading_the_whole_dict_sees_the_deferred_entry(read: Any) -> None:
    info, _ = counting()
    assert read(info) == {"legal": [1, 2], "observation_json": {"turn": 3}}


def test_a_copy_keeps_the_entry_deferred_and_setting_it_replaces_it() -> None:
    info, calls = counting()
    twin = info.copy()
    assert isinstance(twin, LazyInfo) and calls == []
    twin["observation_json"] = "mine"
    assert twin["observation_json"] == "mine" and calls == []
    assert info == {"legal": [1, 2], "observation_json": {"turn": 3}}


@pytest.mark.parametrize("game", GAMES)
def test_the_env_builds_no_observation_json_unless_it_is_read(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = aec_env(game, 2)
    built: list[int] = []
    observation = env.game.observation

    def spy(state: Any, seat: int) -> Any:
        built.append(seat)
        return observation(state, seat)

    monkeypatch.setattr(env.game, "observation", spy)
    env.reset(seed=2)
    for _ in range(20):
        _, _, _, _, info = env.last()
        env.step(int(info["legal_indices"][0]))
    assert built == []
    seat = env.agent_seats[env.agent_selection]
    assert env.infos[env.agent_selection]["observation_json"]["player"] == seat
    assert built == [seat]


def test_reading_it_after_the_env_moved_on_is_refused() -> None:
    env = aec_env("architekton")
    env.reset(seed=1)
    info = env.infos[env.agent_selection]
    env.step(int(info["legal_indices"][0]))
    with pytest.raises(StaleInfo, match="moved on"):
        info["observation_json"]
    env.reset(seed=1)
    assert env.infos[env.agent_selection]["observation_json"]["turn"] == 0
    with pytest.raises(StaleInfo):  # the new match's info is fresh, the old one refused
        info.get("observation_json")


def test_the_gym_info_holds_the_observation_json_of_its_seat() -> None:
    env = gym_env("attika", 2)
    _, info = env.reset(seed=4)
    assert isinstance(info, LazyInfo) and info["faults"] == []
    assert info["observation_json"]["player"] == 0
    _, _, _, _, info = env.step(int(info["legal_indices"][0]))
    assert info["observation_json"]["player"] == 0


def test_a_gym_info_kept_stays_readable_after_the_next_steps() -> None:
    env = gym_env("megalopolis", 2)
    _, first = env.reset(seed=4)
    _, _, _, _, second = env.step(int(first["legal_indices"][0]))
    env.step(int(second["legal_indices"][0]))
    assert first["observation_json"]["turn"] < second["observation_json"]["turn"]
