"""`agon`, the platform's command, offers every command of the kit beside its own (`up`,
`demo`, `health`, `ratings`), each with its help and options, and its list of commands
loads none of them."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from agon.cli import COMMANDS, build_parser, main
from agon_kit import cli as kit

PLATFORM_COMMANDS = {"up", "demo", "health", "ratings"}


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def subcommand_helps(parser: argparse.ArgumentParser) -> dict[str, str | None]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return {choice.dest: choice.help for choice in action._choices_actions}


def test_agon_offers_every_command_of_the_kit_and_its_own() -> None:
    assert set(COMMANDS) == set(kit.COMMANDS) | PLATFORM_COMMANDS
    assert {name: COMMANDS[name] for name in kit.COMMANDS} == kit.COMMANDS
    assert all(COMMANDS[name][0].startswith("agon.cli.") for name in PLATFORM_COMMANDS)


def test_the_list_of_commands_says_what_each_module_says_of_itself() -> None:
    assert subcommand_helps(build_parser()) == {
        name: summary for name, (_, summary) in COMMANDS.items()
    }
    assert subcommand_helps(build_parser(chosen="")) == subcommand_helps(build_parser())


def test_the_list_of_commands_loads_none_of_them() -> None:
    script = (
        "import sys\n"
        "from agon.cli import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(  # noqa: S603 - our own interpreter and script
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert not set(done.stderr.split()) & {module for module, _ in COMMANDS.values()}


@pytest.mark.parametrize("command", tuple(COMMANDS))
def test_every_command_still_has_its_help_and_options(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([command, "--help"])
    assert exited.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith(f"usage: agon {command} ")
    assert "options:" in shown


def test_the_platform_s_helps_keep_saying_agon() -> None:
    commands = subcommands(build_parser())
    assert "agon play --game akropolis" in commands["play"].format_help()
