"""A match step by step for the viewer (`agon.matches.timeline`): view patches, faults at
their turn, finished, running and queued matches, and the `since` window."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from pytest_django import Settings

from agon.bots.models import Bot
from agon.ladders.models import Ladder
from agon.matches.live import LiveRecorder
from agon.matches.models import Match
from agon.matches.services import match_claim, match_create
from agon.matches.timeline import (
    apply_patch,
    match_timeline,
    seat_observation_patches,
    timeline_steps,
    view_patch,
)
from engine.core import JSON
from engine.match import play_match
from engine.players import BotFault, Player
from engine.registry import game_ids, get_game, get_spec
from engine.replay import Replay, replay_states
from tests.platform.conftest import MakeBot
from tests.platform.web.support import play_and_finish


@pytest.fixture(autouse=True)
def media_root(settings: Settings, tmp_path: Path) -> Path:
    folder = tmp_path / "media"
    settings.MEDIA_ROOT = folder
    cache.clear()
    return folder


def greedy_replay(game_id: str, players: int, seed: int = 3) -> Replay:
    game = get_game(game_id)
    return play_match(
        game,
        seed=seed,
        players=players,
        options={},
        bots=[game.greedy_bot(seat) for seat in range(players)],
        bot_ids=[f"greedy-{seat}" for seat in range(players)],
    )


def views_of(steps: list[dict[str, JSON]]) -> list[Any]:
    views: list[Any] = []
    view: Any = None
    for step in steps:
        view = apply_patch(view, step["view_patch"])
        views.append(view)
    return views


# --- patches --------------------------------------------------------------------------------


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.choice(["int", "str", "none", "list", "dict"] if depth < 3 else ["int", "str"])
    if kind == "int":
        return rng.randrange(4)
    if kind == "str":
        return rng.choice("ab")
    if kind == "none":
        return None
    if kind == "list":
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {key: random_value(rng, depth + 1) for key in rng.sample("xyz", rng.randrange(4))}


def test_a_patch_turns_any_value_into_any_other() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        before, after = random_value(rng), random_value(rng)
        patch = view_patch(before, after)
        result = before if patch is view_patch(1, 1) else apply_patch(before, patch)
        assert result == after and type(result) is type(after), (before, after, patch)


def test_a_patch_names_only_what_changed() -> None:
    city = {"hexes": [[0, 0, 1], [0, 1, 1], [1, 1, 1]]}
    grown = {"hexes": [[0, 0, 1], [0, 1, 1], [1, 1, 1], [1, 0, 1]]}
    before = {"scores": [1, 2, 3, 4], "turn": 5, "cities": [city, city, city], "over": False}
    after = {"scores": [1, 2, 9, 4], "turn": 6, "cities": [city, grown, city], "over": False}
    assert view_patch(before, after) == {
        "scores": {"$len": 4, "$i": {"2": 9}},
        "turn": 6,
        "cities": {"$len": 3, "$i": {"1": {"hexes": {"$len": 4, "$i": {"3": [1, 0, 1]}}}}},
    }


def test_a_list_mostly_changed_is_sent_whole() -> None:
    assert view_patch([1, 2, 3], [1, 5, 6]) == [1, 5, 6]


def test_a_dict_whose_keys_changed_is_replaced_whole() -> None:
    assert view_patch({"a": 1}, {"b": 1}) == {"$set": {"b": 1}}
    assert apply_patch({"a": 1}, {"$set": {"b": 1}}) == {"b": 1}


# --- steps -------------------------------------------------------------------------------------


TABLES = [(game_id, max(get_game(game_id).player_counts[:2])) for game_id in game_ids()]
"""Every game, at its second smallest table (its only one if it has one)."""


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_the_steps_rebuild_every_view_of_the_replay(game_id: str, players: int) -> None:
    replay = greedy_replay(game_id, players)
    steps = timeline_steps(replay, reveal=True)
    spectator = get_spec(game_id).spectator()
    expected = [spectator.view(state, reveal=True) for state in replay_states(replay)]
    assert len(steps) == len(replay.actions) + 1
    assert views_of(steps) == json.loads(json.dumps(expected))
    assert [step["action"] for step in steps[1:]] == replay.actions
    game = get_game(game_id)
    first = game.current_player(game.new_state(replay.seed, players, {}))
    assert steps[0]["seat"] is None and steps[1]["seat"] == first


@pytest.mark.parametrize(("game_id", "players"), TABLES)
def test_view_as_a_seat_rebuilds_what_the_engine_showed_that_seat(
    game_id: str, players: int
) -> None:
    replay = greedy_replay(game_id, players)
    game = get_game(game_id)
    seat = players - 1
    patches = seat_observation_patches(replay, seat)
    shown: list[Any] = []
    observation: Any = None
    for patch in patches:
        observation = apply_patch(observation, patch)
        shown.append(observation)
    expected = [game.observation(state, seat) for state in replay_states(replay)]
    assert shown == json.loads(json.dumps(expected))


def test_a_four_player_akropolis_timeline_is_small() -> None:
    steps = timeline_steps(greedy_replay("akropolis", 4), reveal=True)
    assert len(steps) == 61
    assert len(json.dumps(steps)) < 120_000


class CrashesOnItsThirdTurn(Player):
    def __init__(self) -> None:
        self.turns = 0

    def act(self, observation: Any, legal_actions: Any) -> Any:
        self.turns += 1
        if self.turns == 3:
            raise BotFault("crash", "exit code 1")
        return legal_actions[0]


def test_a_fault_shows_at_the_step_of_its_turn() -> None:
    game = get_game("akropolis")
    replay = play_match(
        game,
        seed=4,
        players=2,
        options={},
        bots=[game.greedy_bot(0), CrashesOnItsThirdTurn()],
        bot_ids=["greedy", "crashes"],
    )
    (fault,) = replay.faults
    steps = timeline_steps(replay, reveal=True)
    faulted = [index for index, step in enumerate(steps) if step["faults"]]
    assert faulted == [fault["turn"] + 1]
    step = steps[faulted[0]]
    assert step["seat"] == 1
    assert step["faults"] == [{"kind": "crash", "detail": "exit code 1"}]


# --- matches -----------------------------------------------------------------------------------


@pytest.fixture
def four_bots(ladders: list[Ladder], make_bot: MakeBot, alice: Any, bob: Any) -> list[Bot]:
    return [make_bot(alice, "a1"), make_bot(alice, "a2"), make_bot(bob, "b1"), make_bot(bob, "b2")]


def ranked(bots: list[Bot]) -> Match:
    ladder = Ladder.objects.get(game="akropolis", players=len(bots))
    return match_create(
        kind=Match.Kind.RANKED,
        ladder=ladder,
        game="akropolis",
        players=len(bots),
        options={},
        seats=[bot.versions.get(status="active") for bot in bots],
        seed=42,
    )


def test_a_finished_match_shows_every_step_with_hands_revealed(four_bots: list[Bot]) -> None:
    match = play_and_finish(ranked(four_bots))
    timeline = match_timeline(match)
    replay = Replay.from_json(json.loads(match.replay.open("rb").read()))
    assert timeline["status"] == "finished" and timeline["final"] is True
    assert timeline["total"] == len(replay.actions) + 1 == len(timeline["steps"])
    assert timeline["result"] == {"scores": match.scores, "ranks": match.ranks, "faults": []}
    assert views_of(timeline["steps"])[-1]["scores"] == match.scores


def test_a_finished_match_shows_what_a_seat_saw_beside_each_step(four_bots: list[Bot]) -> None:
    match = play_and_finish(ranked(four_bots))
    plain = match_timeline(match, since=5)
    as_seat = match_timeline(match, since=5, seat=2)
    assert "observation_patch" not in plain["steps"][0]
    replay = Replay.from_json(json.loads(match.replay.open("rb").read()))
    whole = seat_observation_patches(replay, 2)
    assert [step["observation_patch"] for step in as_seat["steps"]] == whole[5:]
    assert [{**step, "observation_patch": None} for step in as_seat["steps"]] == [
        {**step, "observation_patch": None} for step in plain["steps"]
    ]


def test_since_gives_the_steps_from_there_as_patches_of_the_step_before(
    four_bots: list[Bot],
) -> None:
    match = play_and_finish(ranked(four_bots))
    whole = match_timeline(match)["steps"]
    tail = match_timeline(match, since=40)
    assert tail["since"] == 40 and tail["steps"] == whole[40:]
    assert views_of(whole[:40] + tail["steps"]) == views_of(whole)


def test_a_running_match_shows_the_moves_written_so_far(four_bots: list[Bot]) -> None:
    match = ranked(four_bots)
    match_claim(match_id=match.id)
    match.refresh_from_db()
    assert match_timeline(match)["total"] == 1, "the table after setup before any move"
    actions = greedy_replay("akropolis", 4, seed=42).actions
    recorder = LiveRecorder(match.id, interval=0)
    for action in actions[:9]:
        recorder(None, 0, action)
    timeline = match_timeline(match)
    assert timeline["status"] == "running" and timeline["final"] is False
    assert timeline["total"] == 10
    assert timeline["result"] is None
    hidden = views_of(timeline["steps"])
    assert len(hidden[-1]["cities"][0]["hexes"]) > 4


def test_a_queued_match_has_no_steps_yet(four_bots: list[Bot]) -> None:
    timeline = match_timeline(ranked(four_bots))
    assert (timeline["total"], timeline["steps"], timeline["final"]) == (0, [], False)
