"""The command-line page (docs/command-line.md, served at /docs/command-line/): every
command it shows is one the kit takes as written, and it covers every command of the kit;
so are the kit's commands the bot author's page and the starter kit's README show."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from django.test import Client

from agon_kit.cli import KIT_COMMANDS, build_parser

REPO_DIR = Path(__file__).parents[2]
PAGE = REPO_DIR / "docs" / "command-line.md"
SHOWING_THE_KIT = (
    PAGE,
    REPO_DIR / "docs" / "bot-protocol.md",
    REPO_DIR / "platform" / "agon" / "web" / "starter_kit" / "README.md",
)
SHELL_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)
KIT_COMMAND = re.compile(r"^(?:\.venv/bin/)?agon-kit ")


def shown_commands(page: Path = PAGE) -> list[list[str]]:
    lines = [
        line.split("  #")[0].strip()
        for block in SHELL_BLOCK.findall(page.read_text(encoding="utf-8"))
        for line in block.splitlines()
    ]
    return [shlex.split(line)[1:] for line in lines if KIT_COMMAND.match(line)]


def every_command_shown() -> list[tuple[str, list[str]]]:
    return [(page.name, argv) for page in SHOWING_THE_KIT for argv in shown_commands(page)]


@pytest.mark.parametrize(
    ("page", "argv"), every_command_shown(), ids=[" ".join(a) for _, a in every_command_shown()]
)
def test_each_command_shown_parses_as_written(page: str, argv: list[str]) -> None:
    args = build_parser().parse_args(argv)
    assert args.command == argv[0]


def test_the_page_shows_every_command_of_the_kit() -> None:
    assert {argv[0] for argv in shown_commands()} == set(KIT_COMMANDS)


def test_the_other_pages_show_the_kit_s_commands_too() -> None:
    for page in SHOWING_THE_KIT[1:]:
        assert {"play", "submit"} <= {argv[0] for argv in shown_commands(page)}, page


@pytest.mark.django_db
def test_the_page_is_served_and_linked_from_the_bot_author_s_page(client: Client) -> None:
    page = client.get("/docs/command-line/")
    assert page.status_code == 200
    assert b"agon-kit submit main.py --bot first --game akropolis --create" in page.content
    assert b'href="/my/token/"' in page.content
    assert b'href="/docs/command-line/"' in client.get("/docs/").content
    assert b'href="/docs/command-line/"' in client.get("/docs/bot-protocol/").content
