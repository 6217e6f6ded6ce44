from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from engine.replay import Replay, verify_replay
from tests.agon_kit.support import Outcome

FIRST_LEGAL_BOT = """\
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "turn":
        legal = message["legal_actions"]
        q, r, rotation = legal["placements"][0]
        action = {"tile": legal["tiles"][0], "q": q, "r": r, "rotation": rotation}
        print(json.dumps({"action": action}), flush=True)
    elif message["type"] == "end":
        break
"""


def test_it_prints_ranks_scores_faults_and_replay_as_the_last_line(
    agon: Callable[..., Outcome], tmp_path: Path
) -> None:
    replay_path = tmp_path / "match.json"
    outcome = agon(
        "play",
        "--game",
        "akropolis",
        "--seed",
        "5",
        "--replay",
        str(replay_path),
        "builtin:greedy",
        "builtin:random",
        "builtin:random",
    )
    assert outcome.code == 0, outcome.err
    summary = outcome.last_json()
    assert set(summary) == {"ranks", "scores", "faults", "replay"}
    assert len(summary["ranks"]) == len(summary["scores"]) == 3
    assert summary["faults"] == []
    assert summary["replay"] == str(replay_path)
    replay = Replay.load(replay_path)
    assert replay.result["scores"] == summary["scores"]
    verify_replay(replay)


def test_the_same_seed_writes_byte_identical_replays(
    agon: Callable[..., Outcome], tmp_path: Path
) -> None:
    for name in ("a.json", "b.json"):
        outcome = agon(
            "play",
            "--game",
            "akropolis",
            "--seed",
            "11",
            "--replay",
            str(tmp_path / name),
            "builtin:random",
            "builtin:greedy",
        )
        assert outcome.code == 0
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_a_search_bot_plays_as_a_builtin_and_its_replay_reproduces(
    agon: Callable[..., Outcome], tmp_path: Path
) -> None:
    replays = []
    for name in ("a.json", "b.json"):
        path = tmp_path / name
        outcome = agon(
            "play", "--game", "architekton", "--seed", "3", "--replay", str(path),
            "builtin:mcts-1", "builtin:greedy",
        )  # fmt: skip
        assert outcome.code == 0
        replays.append(path.read_bytes())
    assert replays[0] == replays[1]
    replay = Replay.from_json(json.loads(replays[0]))
    assert replay.bots == ["builtin:mcts-1", "builtin:greedy"]
    verify_replay(replay)


def test_ranks_put_the_best_score_first(agon: Callable[..., Outcome]) -> None:
    summary = agon(
        "play", "--game", "akropolis", "--seed", "2", "builtin:greedy", "builtin:random"
    ).last_json()
    best = max(range(2), key=lambda seat: summary["scores"][seat])
    assert summary["ranks"][best] == 1


def test_options_reach_the_game(agon: Callable[..., Outcome], tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    outcome = agon(
        "play",
        "--game",
        "akropolis",
        "--seed",
        "3",
        "--option",
        "all_tiles=true",
        "--option",
        "markets=true",
        "--replay",
        str(path),
        "builtin:random",
        "builtin:random",
    )
    assert outcome.code == 0
    replay = Replay.load(path)
    assert replay.options["all_tiles"] is True and replay.options["markets"] is True
    assert len(replay.actions) == 60


def test_it_rejects_unknown_options_games_and_bots_clearly(agon: Callable[..., Outcome]) -> None:
    bad_option = agon(
        "play",
        "--game",
        "akropolis",
        "--seed",
        "1",
        "--option",
        "speed=3",
        "builtin:random",
        "builtin:random",
    )
    assert bad_option.code == 2 and "unknown option(s) speed" in bad_option.err
    bad_game = agon("play", "--game", "chess", "--seed", "1", "builtin:random", "builtin:random")
    assert bad_game.code == 2 and "unknown game 'chess'" in bad_game.err
    bad_bot = agon("play", "--game", "akropolis", "--seed", "1", "builtin:clever", "builtin:random")
    assert bad_bot.code == 2 and "unknown builtin bot 'clever'" in bad_bot.err
    too_many = agon("play", "--game", "akropolis", "--seed", "1", *["builtin:random"] * 5)
    assert too_many.code == 2 and "not 5" in too_many.err
    four_long = agon(
        "play",
        "--game",
        "akropolis",
        "--seed",
        "1",
        "--option",
        "all_tiles=true",
        *["builtin:random"] * 4,
    )
    assert four_long.code == 2 and "only for 2/3 players" in four_long.err


def test_a_bot_file_plays_over_the_protocol_when_unboxed(
    agon: Callable[..., Outcome], tmp_path: Path
) -> None:
    bot = tmp_path / "first_legal.py"
    bot.write_text(FIRST_LEGAL_BOT)
    path = tmp_path / "m.json"
    outcome = agon(
        "play",
        "--game",
        "akropolis",
        "--seed",
        "4",
        "--sandbox",
        "none",
        "--replay",
        str(path),
        str(bot),
        "builtin:random",
    )
    assert outcome.code == 0, outcome.err
    assert outcome.last_json()["faults"] == []
    replay = Replay.load(path)
    assert replay.bots[0].startswith("file:first_legal.py@sha256:")
    assert str(tmp_path) not in path.read_text(), "replays hold no host paths"


def test_a_bot_file_runs_in_a_box_by_default(agon: Callable[..., Outcome], tmp_path: Path) -> None:
    bot = tmp_path / "where.py"
    bot.write_text(
        "import json, os, sys\n"
        "print('uid', os.getuid(), 'cwd', os.getcwd(), file=sys.stderr, flush=True)\n"
        + FIRST_LEGAL_BOT
    )
    outcome = agon(
        "play",
        "--game",
        "akropolis",
        "--seed",
        "4",
        "--sandbox",
        "bwrap",
        str(bot),
        "builtin:random",
    )
    assert outcome.code == 0, outcome.err
    assert outcome.last_json()["faults"] == []
    assert "uid 65534 cwd /bot" in outcome.out


def test_an_unknown_sandbox_is_refused(agon: Callable[..., Outcome], tmp_path: Path) -> None:
    outcome = agon(
        "play",
        "--game",
        "akropolis",
        "--seed",
        "4",
        "--sandbox",
        "jail",
        "builtin:random",
        "builtin:random",
    )
    assert outcome.code == 2 and "invalid choice: 'jail'" in outcome.err


def test_a_crashing_bot_is_a_recorded_fault_and_ranks_last(
    agon: Callable[..., Outcome], tmp_path: Path
) -> None:
    bot = tmp_path / "crash.py"
    bot.write_text("import sys\nprint('boom', file=sys.stderr)\nsys.exit(3)\n")
    outcome = agon(
        "play",
        "--game",
        "akropolis",
        "--seed",
        "9",
        "--sandbox",
        "none",
        str(bot),
        "builtin:random",
        "builtin:random",
    )
    summary = outcome.last_json()
    assert [f["kind"] for f in summary["faults"]] == ["crash"]
    assert summary["faults"][0]["seat"] == 0 and summary["faults"][0]["turn"] == 0
    # The fault (public) says how it ended; its log (the owner's) is printed apart.
    assert summary["faults"][0]["detail"] == "the program exited with code 3"
    assert "log of seat 0 (last lines):\n  boom" in outcome.out
    assert summary["ranks"][0] == 3


def test_a_bot_talking_nonsense_is_a_bad_output_fault(
    agon: Callable[..., Outcome], tmp_path: Path
) -> None:
    bot = tmp_path / "chatty.py"
    bot.write_text("import sys\nfor line in sys.stdin:\n    print('hello', flush=True)\n")
    summary = agon(
        "play",
        "--game",
        "akropolis",
        "--seed",
        "9",
        "--sandbox",
        "none",
        str(bot),
        "builtin:random",
    ).last_json()
    assert [(f["seat"], f["kind"]) for f in summary["faults"]] == [(0, "bad_output")]


def test_an_illegal_move_from_a_bot_file_is_an_illegal_action_fault(
    agon: Callable[..., Outcome], tmp_path: Path
) -> None:
    bot = tmp_path / "far.py"
    bot.write_text(
        "import json, sys\nfor line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'turn':\n"
        "        print(json.dumps({'action': {'tile': 0, 'q': 40, 'r': 0, 'rotation': 0}}),"
        " flush=True)\n"
    )
    summary = agon(
        "play",
        "--game",
        "akropolis",
        "--seed",
        "9",
        "--sandbox",
        "none",
        "builtin:random",
        str(bot),
    ).last_json()
    assert summary["faults"][0]["kind"] == "illegal_action"
    assert summary["faults"][0]["seat"] == 1 and summary["faults"][0]["turn"] == 1
    assert summary["ranks"][1] == 2


def test_the_console_scripts_are_installed() -> None:
    for command in ("agon", "agon-kit"):
        script = Path(sys.executable).parent / command
        assert script.exists(), f"pip install -e . installs the {command} command"
