"""The command-line page (docs/command-line.md, served at /docs/command-line/): every
command it shows is one the kit takes as written, and it covers every command of the kit."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from django.test import Client

from agon.cli import build_parser
from agon.cli.kit import KIT_COMMANDS

PAGE = Path(__file__).parents[2] / "docs" / "command-line.md"
SHELL_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)


def shown_commands() -> list[list[str]]:
    lines = [
        line.split("  #")[0].strip()
        for block in SHELL_BLOCK.findall(PAGE.read_text(encoding="utf-8"))
        for line in block.splitlines()
    ]
    return [shlex.split(line)[1:] for line in lines if line.startswith("agon-kit ")]


@pytest.mark.parametrize("argv", shown_commands(), ids=" ".join)
def test_each_command_shown_parses_as_written(argv: list[str]) -> None:
    args = build_parser(KIT_COMMANDS, prog="agon-kit").parse_args(argv)
    assert args.command == argv[0]


def test_the_page_shows_every_command_of_the_kit() -> None:
    assert {argv[0] for argv in shown_commands()} == set(KIT_COMMANDS)


@pytest.mark.django_db
def test_the_page_is_served_and_linked_from_the_bot_author_s_page(client: Client) -> None:
    page = client.get("/docs/command-line/")
    assert page.status_code == 200
    assert b"agon-kit submit main.py --bot first --game akropolis" in page.content
    assert b'href="/docs/command-line/"' in client.get("/docs/").content
