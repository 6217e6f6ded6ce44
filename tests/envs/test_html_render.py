"""`render_mode="html"` draws the position now as the replay viewer does: one page with
the viewer, the game's renderer and the site's CSS inline, the position's spectator view
as its one step, and nothing asked of the network."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from agon_bot.envs import aec_env, gym_env
from engine.registry import get_spec

GAMES = ("akropolis", "architekton", "attika", "megalopolis")
TIMELINE = re.compile(r'<script type="application/json" id="agon-timeline">(.*?)</script>', re.S)


def timeline_of(page: str) -> dict[str, object]:
    found = TIMELINE.search(page)
    assert found, "the page carries its timeline"
    timeline: dict[str, object] = json.loads(found.group(1))
    return timeline


def play(env: object, moves: int) -> None:
    rng = np.random.default_rng(0)
    for _ in range(moves):
        info = env.infos[env.agent_selection]  # type: ignore[attr-defined]
        legal = info["legal_indices"]
        env.step(int(legal[rng.integers(len(legal))]))  # type: ignore[attr-defined]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_page_shows_the_position_now(game_id: str) -> None:
    env = aec_env(game_id, 2, render_mode="html")
    env.reset(seed=3)
    play(env, 5)
    page = env.render()
    assert isinstance(page, str)
    timeline = timeline_of(page)
    view = get_spec(game_id).spectator().view(env.state, reveal=True)
    assert timeline["steps"] == [
        {
            "view_patch": {"$set": view},
            "seat": None,
            "action": None,
            "text": "the table after 5 moves",
            "mark": None,
            "faults": [],
        }
    ]
    assert timeline["game"] == game_id
    assert timeline["caption"] == "In play: 5 moves so far."  # not "Finished: 0 moves."
    assert "5 actions" in page
    renderer = get_spec(game_id).renderer
    if renderer:
        assert f'data-renderer="{renderer}"' in page
    play(env, 1)
    assert timeline_of(env.render() or "")["steps"] != timeline["steps"]  # it follows the game


def test_the_page_asks_nothing_of_the_network() -> None:
    env = aec_env("akropolis", 3, render_mode="html")
    env.reset(seed=1)
    page = env.render() or ""
    assert page.startswith("<!doctype html>")
    assert "connect-src 'none'" in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page, re.I)
    assert not re.search(r"<link\b|@import|url\(\s*['\"]?(https?:)?//", page, re.I)


def test_a_finished_match_shows_its_result_and_the_gym_env_renders_too() -> None:
    env = aec_env("architekton", 2, render_mode="html")
    env.reset(seed=2)
    while env.result is None:
        play(env, 1)
    page = env.render() or ""
    assert timeline_of(page)["result"] == env.result
    assert timeline_of(page)["caption"] == f"Finished after {len(env.moves)} moves."
    gym = gym_env("megalopolis", 2, "builtin:random", render_mode="html")
    gym.reset(seed=5)
    assert "agon-timeline" in (gym.render() or "")
    with pytest.raises(ValueError, match="render_mode"):
        aec_env("megalopolis", 2, render_mode="rgb_array")
