from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from tests.agon_kit.support import Outcome

Agon = Callable[..., Outcome]


def match(agon: Agon, *argv: str) -> Any:
    outcome = agon("match", "builtin:greedy", "builtin:random", "--game", "architekton", *argv)
    assert outcome.code == 0, outcome.err
    return outcome


def test_a_clearly_stronger_bot_is_accepted_with_its_elo_and_llr(agon: Agon) -> None:
    outcome = match(agon, "--sprt", "elo0=0,elo1=50", "--max-games", "200")
    summary = outcome.last_json()
    assert set(summary) == {"games", "wins", "draws", "losses", "elo", "elo_ci95", "llr", "verdict"}
    assert summary["verdict"] == "H1"
    assert summary["llr"] >= math.log(20)
    assert summary["games"] < 200 and summary["games"] % 2 == 0
    assert summary["wins"] + summary["draws"] + summary["losses"] == summary["games"]
    low, high = summary["elo_ci95"]
    assert 0 < low < summary["elo"] and (high is None or summary["elo"] < high)
    assert "Evidence +" in outcome.out
    assert "Is builtin:greedy at least 50 Elo stronger than builtin:random?" in outcome.out
    assert f"Yes: after {summary['games']} games ({summary['wins']} won" in outcome.out
    assert f"Estimated {summary['elo']:+.0f} Elo (95%: {low:+.0f}" in outcome.out


def test_a_sweep_is_decided_with_the_defaults(agon: Agon) -> None:
    # Issue 24: --max-games 60 went 60-0 and ended inconclusive at LLR +0.85.
    summary = match(agon, "--max-games", "60").last_json()
    assert summary["verdict"] == "H1" and summary["llr"] >= math.log(20)
    low, _high = summary["elo_ci95"]
    assert low > 100


def test_with_the_default_sprt_a_sweep_stops_within_twenty_games(agon: Agon) -> None:
    summary = match(agon, "--sprt", "").last_json()
    assert summary["verdict"] == "H1" and summary["games"] <= 20


def test_the_weaker_bot_is_rejected(agon: Agon) -> None:
    outcome = agon(
        "match",
        "builtin:random",
        "builtin:greedy",
        "--game",
        "architekton",
        "--sprt",
        "elo0=0,elo1=50",
        "--max-games",
        "200",
    )
    assert outcome.last_json()["verdict"] == "H0"


def test_the_verdict_does_not_depend_on_the_jobs(agon: Agon) -> None:
    argv = ("--sprt", "elo0=0,elo1=50", "--seed", "9")
    assert match(agon, *argv, "--jobs", "3").last_json() == match(agon, *argv).last_json()


def test_without_sprt_it_plays_the_game_limit(agon: Agon) -> None:
    summary = match(agon, "--max-games", "6").last_json()
    assert summary["games"] == 6
    assert summary["verdict"] == "inconclusive"


def test_it_refuses_a_malformed_sprt(agon: Agon) -> None:
    outcome = agon(
        "match", "builtin:greedy", "builtin:random", "--game", "architekton", "--sprt", "elo2=3"
    )
    assert outcome.code == 2
    assert "elo0, elo1, alpha, beta" in outcome.err


def test_at_tables_of_three_the_versions_play_mirrored_tables(agon: Agon) -> None:
    outcome = agon(
        "match",
        "builtin:greedy",
        "builtin:random",
        "--game",
        "megalopolis",
        "--players",
        "3",
        "--opponent",
        "builtin:random",
        "--max-games",
        "8",
    )
    assert outcome.code == 0, outcome.err
    summary = outcome.last_json()
    assert summary["games"] == 8
    assert summary["wins"] + summary["draws"] + summary["losses"] == 4  # two pairs of legs
