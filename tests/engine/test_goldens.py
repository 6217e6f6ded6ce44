"""Every game's golden playthroughs (tests/engine/goldens/) play exactly as stored.

A failure names the golden and the first turn that differs. If the change was made on
purpose (rules, a builtin bot, observations or views), regenerate the files with
`python -m tests.engine.goldens`, review their diff, and bump the game's rules_version
if old replays would play differently; a refactoring must pass unchanged.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import JSON
from engine.registry import game_ids, get_game
from engine.replay import Replay, verify_replay
from tests.engine.goldens.__main__ import arguments
from tests.engine.goldens.__main__ import main as regenerate
from tests.engine.goldens.playthroughs import (
    GOLDEN_DIR,
    GOLDENS,
    REGENERATE,
    Golden,
    build_golden,
    golden_text,
    position,
    read_golden,
)

MAX_FILE_BYTES = 64 * 1024
MAX_TOTAL_BYTES = 400 * 1024


def hint(golden: Golden) -> str:
    return (
        f"; if that change was deliberate, run `{REGENERATE} {golden.game}` "
        f"and review the diff of tests/engine/goldens/{golden.id}.json"
    )


def first_difference(now: dict[str, JSON], stored: dict[str, JSON]) -> str:
    keys = [key for key in stored if now.get(key) != stored[key]]
    return ", ".join(f"{key} is {now.get(key)}, was {stored[key]}" for key in keys)


def stored(golden: Golden) -> dict[str, Any]:
    assert golden.path.exists(), f"{golden.id}.json is missing" + hint(golden)
    return read_golden(golden)


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda g: g.id)
def test_the_stored_actions_lead_through_the_stored_positions(golden: Golden) -> None:
    # The rules alone, without the bots.
    data = stored(golden)
    game = get_game(golden.game)
    state = game.new_state(data["seed"], data["players"], data["options"])
    start = position(game, state)
    assert start == data["start"], (
        f"{golden.id}: the setup differs: " + first_difference(start, data["start"]) + hint(golden)
    )
    for index, turn in enumerate(data["turns"]):
        assert not game.is_over(state), f"{golden.id}: over after {index} actions" + hint(golden)
        assert game.current_player(state) == turn["seat"], (
            f"{golden.id}: action {index} is seat {game.current_player(state)}'s, "
            f"not seat {turn['seat']}'s" + hint(golden)
        )
        game.apply(state, turn["action"])
        now = {"seat": turn["seat"], "action": turn["action"], **position(game, state)}
        assert now == turn, (
            f"{golden.id}: after action {index} ({turn['action']}), "
            + first_difference(now, turn)
            + hint(golden)
        )
    assert game.is_over(state), f"{golden.id}: not over after the stored actions" + hint(golden)
    assert game.result(state).to_json() == data["result"], (
        f"{golden.id}: the result differs" + hint(golden)
    )


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda g: g.id)
def test_the_bots_play_the_stored_match_again(golden: Golden) -> None:
    data = stored(golden)
    again = build_golden(golden)
    for index, (now, then) in enumerate(zip(again["turns"], data["turns"], strict=False)):
        assert now == then, (
            f"{golden.id}: action {index}: " + first_difference(now, then) + hint(golden)
        )
    assert len(again["turns"]) == len(data["turns"]), (
        f"{golden.id}: {len(again['turns'])} actions, not {len(data['turns'])}" + hint(golden)
    )
    assert again == data, f"{golden.id}: " + first_difference(again, data) + hint(golden)
    assert golden_text(again) == golden.path.read_text(encoding="utf-8"), (
        f"{golden.id}: the file is not written as {REGENERATE} writes it" + hint(golden)
    )


@pytest.mark.parametrize("golden", [g for g in GOLDENS if g.keep_replay], ids=lambda g: g.id)
def test_a_stored_replay_still_loads_verifies_and_matches_its_turns(golden: Golden) -> None:
    data = stored(golden)
    replay = Replay.from_json(data["replay"])
    assert replay.to_json() == data["replay"]
    verify_replay(replay)
    assert replay.actions == [turn["action"] for turn in data["turns"]]
    assert replay.result == data["result"]


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_has_goldens_for_each_player_count_option_and_builtin_bot(
    game_id: str,
) -> None:
    game = get_game(game_id)
    goldens = [g for g in GOLDENS if g.game == game_id]
    assert {g.players for g in goldens} == set(game.player_counts)
    for option in game.options:
        assert any(g.options.get(option.name) for g in goldens), f"no golden with {option.name}"
    assert {bot for g in goldens for bot in g.bots} == {"random", "greedy"}
    assert sum(g.keep_replay for g in goldens) == 1, "one golden per game keeps its replay"


def test_golden_names_are_unique() -> None:
    assert len({g.id for g in GOLDENS}) == len(GOLDENS)


def test_there_is_no_stray_golden_file() -> None:
    files = sorted(str(p.relative_to(GOLDEN_DIR)) for p in GOLDEN_DIR.glob("*/*.json"))
    assert files == sorted(f"{g.id}.json" for g in GOLDENS)


def test_the_golden_files_stay_small() -> None:
    sizes = {g.id: g.path.stat().st_size for g in GOLDENS}
    assert max(sizes.values()) <= MAX_FILE_BYTES, sizes
    assert sum(sizes.values()) <= MAX_TOTAL_BYTES, sizes


def test_the_regeneration_command_finds_the_files_up_to_date(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert regenerate(["--check", "architekton"]) == 0
    architekton = sum(g.game == "architekton" for g in GOLDENS)
    assert capsys.readouterr().out.count("up to date") == architekton


def test_the_regeneration_command_takes_every_game_by_default() -> None:
    assert arguments(["--check"]).games == []
    assert arguments(["attika", "akropolis"]).games == ["attika", "akropolis"]


def test_the_regeneration_command_refuses_an_unknown_game() -> None:
    with pytest.raises(SystemExit):
        regenerate(["--check", "chess"])
