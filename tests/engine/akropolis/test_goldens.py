"""Golden playthroughs: fixed matches whose replays and positions are stored in goldens/.

When one of these fails after an intended change of the rules (or of a builtin bot's
decisions), regenerate the files with `python -m scripts.regenerate_goldens`, review the
diff, and bump engine.core.ENGINE_VERSION if old replays would play differently.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.replay import Replay, replay_states, verify_replay
from scripts.regenerate_goldens import GOLDEN_DIR, GOLDENS, Golden, build_golden, golden_text
from tests.engine.support import GAME

REGENERATE = (
    "if the rules or a builtin bot changed on purpose, run "
    "`python -m scripts.regenerate_goldens` and review the diff of {path}"
)
MAX_TOTAL_BYTES = 300 * 1024


def stored(golden: Golden) -> dict[str, Any]:
    assert golden.path.exists(), f"{golden.path.name} is missing: " + REGENERATE.format(
        path=golden.path.name
    )
    data: dict[str, Any] = json.loads(golden.path.read_text(encoding="utf-8"))
    return data


def hint(golden: Golden) -> str:
    return REGENERATE.format(path=f"tests/engine/akropolis/goldens/{golden.path.name}")


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda g: g.name)
def test_the_stored_actions_replay_to_the_stored_positions(golden: Golden) -> None:
    # The rules alone, without the bots: every checkpoint's state and scores.
    data = stored(golden)
    replay = Replay.from_json(data["replay"])
    checkpoints = {c["turn"]: c for c in data["checkpoints"]}
    reached = []
    for state in replay_states(replay):
        turn = GAME.turn_number(state)
        if turn in checkpoints:
            expected = checkpoints[turn]
            assert GAME.state_to_json(state) == expected["state"], (
                f"{golden.name}: the state after turn {turn} differs; " + hint(golden)
            )
            assert GAME.result(state).scores == expected["scores"], (
                f"{golden.name}: the scores after turn {turn} differ; " + hint(golden)
            )
            reached.append(turn)
    assert reached == sorted(checkpoints), f"{golden.name}: checkpoints not reached"
    verify_replay(replay)


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda g: g.name)
def test_the_bots_play_the_stored_match_again(golden: Golden) -> None:
    data = stored(golden)
    again = build_golden(golden)
    actions, stored_actions = again["replay"]["actions"], data["replay"]["actions"]
    for turn, (new, old) in enumerate(zip(actions, stored_actions, strict=False)):
        assert new == old, f"{golden.name}: turn {turn} plays {new}, not {old}; " + hint(golden)
    assert again["replay"] == data["replay"], f"{golden.name}: the replay differs; " + hint(golden)
    assert again == data, f"{golden.name}: a checkpoint differs; " + hint(golden)
    assert golden_text(again) == golden.path.read_text(encoding="utf-8"), hint(golden)


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda g: g.name)
def test_a_golden_has_a_checkpoint_every_10_turns_and_at_the_end(golden: Golden) -> None:
    data = stored(golden)
    turns = [c["turn"] for c in data["checkpoints"]]
    last = len(data["replay"]["actions"])
    assert turns == sorted({*range(10, last + 1, 10), last})
    assert all(len(c["scores"]) == golden.players for c in data["checkpoints"])
    assert data["checkpoints"][-1]["scores"] == data["replay"]["result"]["scores"]


def test_the_goldens_cover_every_player_count_variants_all_tiles_and_the_greedy_bot() -> None:
    assert {g.players for g in GOLDENS} == {2, 3, 4}
    assert any(g.options.get("all_tiles") for g in GOLDENS)
    assert any(sum(1 for v in g.options.values() if v) >= 5 for g in GOLDENS)
    assert any("greedy" in g.bots for g in GOLDENS)


def test_there_is_no_stray_golden_file() -> None:
    assert sorted(p.name for p in GOLDEN_DIR.glob("*.json")) == sorted(g.path.name for g in GOLDENS)


def test_the_golden_files_stay_small() -> None:
    total = sum(p.stat().st_size for p in GOLDEN_DIR.glob("*.json"))
    assert total <= MAX_TOTAL_BYTES
