from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agon_kit import games
from engine.replay import Replay
from tests.agon_kit.support import Outcome

Agon = Callable[..., Outcome]
THREE = ("builtin:greedy", "builtin:random", "builtin:greedy")


def tournament(agon: Agon, *argv: str) -> Any:
    outcome = agon("tournament", "--game", "architekton", *argv)
    assert outcome.code == 0, outcome.err
    return outcome.last_json()


def test_a_round_robin_prints_a_cross_table_and_the_standings_last(agon: Agon) -> None:
    outcome = agon("tournament", "--game", "architekton", "--format", "round-robin", *THREE)
    assert outcome.code == 0, outcome.err
    assert "cross-table" in outcome.out
    summary = outcome.last_json()
    assert set(summary) == {"format", "standings", "matches"}
    assert summary["format"] == "round-robin"
    assert {s["bot"] for s in summary["standings"]} == {
        "builtin:greedy#1",
        "builtin:random",
        "builtin:greedy#2",
    }
    assert summary["standings"][-1]["bot"] == "builtin:random"
    assert set(summary["standings"][0]) == {"bot", "rank", "points", "tiebreaks"}
    assert len(summary["matches"]) == 3 * 2  # three pairings, a pair of games each
    match = summary["matches"][0]
    assert set(match) == {"round", "bots", "ranks", "scores", "replay"}
    assert sum(s["points"] for s in summary["standings"]) == len(summary["matches"])


def test_the_same_command_gives_the_same_standings_on_two_jobs(agon: Agon, tmp_path: Path) -> None:
    argv = ("--format", "swiss", "--rounds", "2", "--seed", "4", *THREE, "builtin:random")
    one = tournament(agon, *argv)
    two = tournament(agon, *argv, "--jobs", "2", "--replays", str(tmp_path))
    assert two["standings"] == one["standings"]
    assert [m["ranks"] for m in two["matches"]] == [m["ranks"] for m in one["matches"]]
    replay = Replay.load(Path(two["matches"][0]["replay"]))
    assert replay.result["ranks"] == two["matches"][0]["ranks"]


def test_a_swiss_bye_scores_without_a_game(agon: Agon) -> None:
    summary = tournament(agon, "--format", "swiss", "--rounds", "1", *THREE)
    assert len(summary["matches"]) == 2
    playing = {bot for match in summary["matches"] for bot in match["bots"]}
    points = {s["bot"]: s["points"] for s in summary["standings"]}
    (bye,) = set(points) - playing
    assert points[bye] == 2  # a won meeting
    assert sum(points.values()) == 2 + len(summary["matches"])


@pytest.mark.parametrize("format_", ["knockout", "double-elimination"])
def test_a_knockout_draws_its_bracket(agon: Agon, format_: str) -> None:
    outcome = agon("tournament", "--game", "architekton", "--format", format_, *THREE)
    assert outcome.code == 0, outcome.err
    assert "bracket" in outcome.out
    standings = outcome.last_json()["standings"]
    assert standings[0]["rank"] == 1 and standings[-1]["bot"] == "builtin:random"


def test_a_gauntlet_gives_the_elo_to_each_opponent(agon: Agon) -> None:
    outcome = agon(
        "tournament", "--game", "architekton", "--format", "gauntlet", "--games", "2", *THREE
    )
    assert outcome.code == 0, outcome.err
    assert "gauntlet of builtin:greedy#1" in outcome.out and "the field" in outcome.out
    assert len(outcome.last_json()["matches"]) == 2 * 2 * 2


def test_tables_of_three_seat_every_bot_in_every_seat(agon: Agon) -> None:
    field = ("builtin:random",) * 4
    outcome = agon(
        "tournament", "--game", "megalopolis", "--format", "round-robin", "--players", "3", *field
    )
    assert outcome.code == 0, outcome.err
    matches = outcome.last_json()["matches"]
    assert len(matches) == 4 * 3  # C(4, 3) tables, three rotations each
    seats = {(bot, seat) for m in matches for seat, bot in enumerate(m["bots"])}
    assert len(seats) == 4 * 3


def test_an_interrupted_tournament_resumes_where_it_stopped(
    agon: Agon, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ("--format", "knockout", "--replays", str(tmp_path), *THREE, "builtin:random")
    finished = tournament(agon, "--format", "knockout", *THREE, "builtin:random")
    play_one = games.play_one
    calls = []

    def interrupted_after_three(setup: games.Setup, game: Any) -> games.Played:
        calls.append(game)
        if len(calls) > 3:
            raise KeyboardInterrupt
        return play_one(setup, game)

    monkeypatch.setattr(games, "play_one", interrupted_after_three)
    assert agon("tournament", "--game", "architekton", *argv).code == 130
    state = json.loads((tmp_path / "tournament.json").read_text())
    assert len(state["played"]) == 3
    replayed = []

    def counted(setup: games.Setup, game: Any) -> games.Played:
        replayed.append(game)
        return play_one(setup, game)

    monkeypatch.setattr(games, "play_one", counted)
    resumed = tournament(agon, *argv)
    assert resumed["standings"] == finished["standings"]
    assert len(resumed["matches"]) == len(finished["matches"])
    assert len(replayed) == len(finished["matches"]) - 3


def test_a_state_of_another_tournament_is_not_resumed(agon: Agon, tmp_path: Path) -> None:
    tournament(agon, "--format", "gauntlet", "--replays", str(tmp_path), *THREE)
    outcome = agon(
        "tournament",
        "--game",
        "architekton",
        "--format",
        "swiss",
        "--replays",
        str(tmp_path),
        *THREE,
    )
    assert outcome.code == 2
    assert "another tournament" in outcome.err


def test_it_refuses_a_table_size_the_game_has_not(agon: Agon) -> None:
    outcome = agon(
        "tournament", "--game", "architekton", "--format", "swiss", "--players", "4", *THREE
    )
    assert outcome.code == 2
    assert "not 4" in outcome.err


def test_help_shows_the_formats_and_the_last_line(agon: Agon) -> None:
    outcome = agon("tournament", "--help")
    assert outcome.code == 0
    for text in ("round-robin", "double-elimination", "gauntlet", '"standings"', "resumes"):
        assert text in outcome.out


def test_a_bot_name_is_shown_as_given_not_as_markup(
    agon: Agon, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    example = Path(__file__).parents[2] / "examples/bots/random_bot.py"
    (tmp_path / "[bold]x.py").write_bytes(example.read_bytes())
    monkeypatch.chdir(tmp_path)
    outcome = agon(
        "tournament",
        "--game",
        "architekton",
        "--format",
        "round-robin",
        "--sandbox",
        "none",
        "[bold]x.py",
        "builtin:random",
    )
    assert outcome.code == 0, outcome.err
    assert "[bold]x.py" in outcome.out.split("standings")[1]
