"""The bot a newcomer wrote from the docs alone plays whole matches through `agon-kit play`,
as its author played it, without a fault, at every table size of its game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO_DIR = Path(__file__).resolve().parents[2]
BOT = REPO_DIR / "examples" / "newcomer" / "akropolis_bot.py"


@pytest.mark.parametrize("players", [2, 4])
def test_the_newcomer_s_akropolis_bot_plays_a_match_without_a_fault(
    tmp_path: Path, players: int
) -> None:
    opponents = ["builtin:greedy"] * (players - 1)
    match = ["play", "--game", "akropolis", "--seed", "3", "--sandbox", "none", str(BOT)]
    played = subprocess.run(  # noqa: S603 - our own command
        [sys.executable, "-m", "agon_kit", *match, *opponents],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )

    assert played.returncode == 0, played.stderr
    outcome = json.loads(played.stdout.strip().splitlines()[-1])
    assert outcome["faults"] == []
    assert len(outcome["scores"]) == players
