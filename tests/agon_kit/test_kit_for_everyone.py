"""The kit as a bot author without root uses it: `agon-kit play` says how to go on when no
box works, and every help of the kit names the command the author typed."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
from pathlib import Path

import pytest

from agon_kit.cli import build_parser

REPO_DIR = Path(__file__).resolve().parents[2]
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
DEBIAN_PYTHON = "/usr/bin/python3"
"""A Python nobody may run (the suite's own lives in root's home)."""


def kit_as_nobody(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {
        "HOME": str(cwd),
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": f"{REPO_DIR}{os.pathsep}{REPO_DIR / 'platform'}",
    }
    return subprocess.run(  # noqa: S603 - our own command
        [*NOBODY, DEBIAN_PYTHON, "-m", "agon_kit", *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment,
        timeout=120,
        check=False,
    )


@pytest.fixture
def open_folder(tmp_path: Path) -> Path:
    tmp_path.chmod(0o777)
    return tmp_path


def test_without_a_box_play_names_the_way_out_and_the_way_out_plays(open_folder: Path) -> None:
    bot = open_folder / "my_bot.py"
    bot.write_text((REPO_DIR / "examples/bots/random_bot.py").read_text())
    bot.chmod(0o644)
    match = ["play", "--game", "akropolis", "--seed", "1", "my_bot.py", "builtin:greedy"]

    refused = kit_as_nobody(*match, cwd=open_folder)

    assert refused.returncode == 2, refused.stderr
    assert "agon-kit: error: no sandbox works here" in refused.stderr
    assert "pass --sandbox none" in refused.stderr

    played = kit_as_nobody(*match, "--sandbox", "none", cwd=open_folder)

    assert played.returncode == 0, played.stderr
    assert '"ranks"' in played.stdout.splitlines()[-1]


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def test_every_help_of_the_kit_names_agon_kit() -> None:
    parser = build_parser()
    commands = subcommands(parser)
    helps = [parser.format_help(), *(command.format_help() for command in commands.values())]
    for text in helps:
        assert not re.findall(r"\bagon (?=[a-z])", text), text
    assert "agon-kit play --game akropolis" in commands["play"].format_help()
