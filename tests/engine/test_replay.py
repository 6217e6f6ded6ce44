"""engine.replay: the replay file, and verification by re-running the match."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.akropolis import Akropolis
from engine.bots import builtin_bot
from engine.match import play_match
from engine.replay import REPLAY_FORMAT, Replay, ReplayError, replay_states, verify_replay
from tests.engine.support import GAME


def new_replay(seed: int = 21, players: int = 3, options: dict[str, Any] | None = None) -> Replay:
    bots = [builtin_bot("random", "akropolis", seed, seat) for seat in range(players)]
    return play_match(
        GAME,
        seed=seed,
        players=players,
        options=options or {},
        bots=bots,
        bot_ids=["random"] * players,
    )


@pytest.fixture(scope="module")
def replay() -> Replay:
    return new_replay()


def tampered(replay: Replay, change: Any) -> Replay:
    data = copy.deepcopy(replay.to_json())
    change(data)
    return Replay.from_json(data)


# --- the file --------------------------------------------------------------------------


def test_it_dumps_compact_sorted_json_on_one_line(replay: Replay) -> None:
    text = replay.dumps()
    assert text.endswith("}\n") and text.count("\n") == 1
    assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":")) + "\n"
    assert json.loads(text)["format"] == REPLAY_FORMAT


def test_it_holds_the_setup_the_actions_and_the_result(replay: Replay) -> None:
    data = replay.to_json()
    assert set(data) == {
        "format",
        "game",
        "engine_version",
        "seed",
        "players",
        "options",
        "bots",
        "actions",
        "faults",
        "result",
    }
    assert data["seed"] == 21 and data["players"] == 3 and len(data["actions"]) == 48
    assert set(data["result"]) == {"scores", "ranks", "details"}


def test_it_reads_back_what_it_dumps(replay: Replay) -> None:
    assert Replay.from_json(json.loads(replay.dumps())) == replay


def test_it_writes_and_loads_a_file(replay: Replay, tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    replay.write(path)
    assert Replay.load(path) == replay
    assert path.read_text(encoding="utf-8") == replay.dumps()


def test_loading_a_file_that_is_not_json_is_a_replay_error(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ReplayError, match="cannot read replay"):
        Replay.load(path)


def test_loading_a_missing_file_is_a_replay_error(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match="cannot read replay"):
        Replay.load(tmp_path / "absent.json")


@pytest.mark.parametrize("data", [[], "replay", {"format": "agon-replay/0"}, {}])
def test_it_rejects_something_that_is_not_a_replay(data: Any) -> None:
    with pytest.raises(ReplayError, match="not an Agon replay"):
        Replay.from_json(data)


@pytest.mark.parametrize(
    ("field", "value"),
    [("seed", "21"), ("players", None), ("actions", {}), ("result", []), ("game", 1)],
)
def test_it_rejects_a_field_of_the_wrong_type(replay: Replay, field: str, value: Any) -> None:
    data = {**replay.to_json(), field: value}
    with pytest.raises(ReplayError, match=f"replay field '{field}' is missing or not a"):
        Replay.from_json(data)


def test_it_rejects_a_missing_field(replay: Replay) -> None:
    data = replay.to_json()
    del data["actions"]
    with pytest.raises(ReplayError, match="'actions' is missing"):
        Replay.from_json(data)


# --- re-running ------------------------------------------------------------------------


def test_an_untouched_replay_verifies(replay: Replay) -> None:
    verify_replay(replay)


def test_replay_states_yields_the_start_and_the_state_after_each_action(
    game: Akropolis, replay: Replay
) -> None:
    turns = [game.turn_number(state) for state in replay_states(replay)]
    assert turns == list(range(49))


def test_a_changed_action_that_is_illegal_fails(replay: Replay) -> None:
    def change(data: dict[str, Any]) -> None:
        data["actions"][5] = {"tile": 0, "q": 40, "r": 40, "rotation": 0}

    with pytest.raises(ReplayError, match="action 5 by player 2 is illegal"):
        verify_replay(tampered(replay, change))


def test_a_malformed_action_fails(replay: Replay) -> None:
    def change(data: dict[str, Any]) -> None:
        data["actions"][0] = "pass"

    with pytest.raises(ReplayError, match="action 0 by player 0 is illegal"):
        verify_replay(tampered(replay, change))


def test_a_changed_action_that_is_legal_fails_when_the_result_changes(
    game: Akropolis, replay: Replay
) -> None:
    # Verification re-runs the actions and compares the result: a legal substitute for the
    # last action that changes the outcome is caught. (One that happens to give the same
    # scores, ranks and details makes a replay of another legal game with that result.)
    *_, before_last = replay_states(tampered(replay, lambda d: d["actions"].pop()))
    stored = replay.result["details"]
    other = None
    for candidate in game.legal_actions(before_last):
        trial = game.copy_state(before_last)
        game.apply(trial, candidate)
        if game.result(trial).details != stored:
            other = candidate
            break
    assert other is not None

    def change(data: dict[str, Any]) -> None:
        data["actions"][-1] = other

    with pytest.raises(ReplayError, match="does not reproduce"):
        verify_replay(tampered(replay, change))


@pytest.mark.parametrize("key", ["scores", "ranks", "details"])
def test_a_changed_result_fails(replay: Replay, key: str) -> None:
    def change(data: dict[str, Any]) -> None:
        if key == "details":
            data["result"]["details"][0]["stones"] += 1
        elif key == "ranks":
            data["result"]["ranks"] = [1, 1, 1]
        else:
            data["result"]["scores"][1] += 1

    with pytest.raises(ReplayError, match=f"the stored result does not reproduce: {key}"):
        verify_replay(tampered(replay, change))


def test_a_changed_seed_fails(replay: Replay) -> None:
    def change(data: dict[str, Any]) -> None:
        data["seed"] += 1

    with pytest.raises(ReplayError):
        verify_replay(tampered(replay, change))


def test_a_changed_option_fails(replay: Replay) -> None:
    def change(data: dict[str, Any]) -> None:
        data["options"]["all_tiles"] = True

    with pytest.raises(ReplayError):
        verify_replay(tampered(replay, change))


@pytest.mark.parametrize("keep", [0, 1, 47])
def test_a_truncated_action_list_fails(replay: Replay, keep: int) -> None:
    def change(data: dict[str, Any]) -> None:
        del data["actions"][keep:]

    with pytest.raises(ReplayError, match=f"stops before the end of the game \\({keep} actions"):
        verify_replay(tampered(replay, change))


def test_an_action_after_the_end_fails(replay: Replay) -> None:
    def change(data: dict[str, Any]) -> None:
        data["actions"].append(data["actions"][-1])

    with pytest.raises(ReplayError, match="action 48 comes after the end of the game"):
        verify_replay(tampered(replay, change))


def test_another_rules_version_fails(replay: Replay) -> None:
    def change(data: dict[str, Any]) -> None:
        data["engine_version"] = "0"

    with pytest.raises(
        ReplayError,
        match=r"made by version 0 of Akropolis's rules; this engine plays version 1 "
        r"\(docs/rules/akropolis-decisions\.md says what changed\)",
    ):
        verify_replay(tampered(replay, change))


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(players=5),
        lambda d: d.update(seed=-1),
        lambda d: d["options"].update(castles=True),
        lambda d: d["options"].update(all_tiles=1),
    ],
)
def test_an_invalid_setup_fails(replay: Replay, change: Any) -> None:
    with pytest.raises(ReplayError, match="setup is invalid"):
        verify_replay(tampered(replay, change))


def test_an_invented_fault_fails_on_the_ranks(replay: Replay) -> None:
    winner = replay.result["ranks"].index(1)

    def change(data: dict[str, Any]) -> None:
        data["faults"].append({"seat": winner, "kind": "crash", "detail": "", "turn": 3})

    with pytest.raises(ReplayError, match="does not reproduce: ranks"):
        verify_replay(tampered(replay, change))


@pytest.mark.parametrize("fault", [{"seat": "zero"}, {"seat": None}, {"seat": 7}, "crash", {}])
def test_a_malformed_fault_fails(replay: Replay, fault: Any) -> None:
    def change(data: dict[str, Any]) -> None:
        data["faults"].append(fault)

    with pytest.raises(ReplayError, match="fault 0"):
        verify_replay(tampered(replay, change))


def test_a_replay_with_all_tiles_and_variants_verifies() -> None:
    verify_replay(new_replay(5, 2, {"all_tiles": True, "houses": True, "temples": True}))
