"""A command imports what it uses, no more: `agon-kit play --help` does not load the
platform, Django, the tournament formats' networkx or the other commands; the list of
commands still names every one of them with its own line of help."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from agon_kit.cli import COMMANDS, KIT_COMMANDS, build_parser, main

HEAVY = (
    "django",
    "networkx",
    "rich",
    "celery",
    "agon.cli",
    "competition.ratings",
    "agon.tournaments.models",
    "sandbox.runner",
    "sandbox.backends",
    "sandbox.packages",
    "statistics",
    "multiprocessing",
    "concurrent.futures.process",
    "http.client",
    "urllib.request",
    "tarfile",
    "zipfile",
)
"""What none of the kit's commands needs to print its help: the platform, and what only
playing, uploading or talking to the site needs (the sandbox's runner, backends and
archive readers, the process pool, `statistics`, the HTTP client). The tournament
formats' pure modules, which `match` and `test` use, are not heavy."""

USES = {
    "play": {"agon_kit.view"},  # play writes the viewer's page
    "match": {"agon_kit.play", "agon_kit.view"},  # match plays as play does
    "tournament": {"agon_kit.play", "agon_kit.view"},  # and so does tournament
}
"""The other commands' modules a command is built on."""


def subcommand_helps(parser: argparse.ArgumentParser) -> dict[str, str | None]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return {choice.dest: choice.help for choice in action._choices_actions}


def modules_loaded_by(*arguments: str) -> set[str]:
    """The modules a fresh interpreter holds once `agon-kit ARGUMENTS` has run."""
    script = (
        "import sys\n"
        "from agon_kit.cli import main\n"
        "try:\n"
        f"    main({list(arguments)!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(  # noqa: S603 - our own interpreter and script
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    return set(done.stderr.split())


def test_the_list_of_commands_says_what_each_module_says_of_itself() -> None:
    assert subcommand_helps(build_parser(COMMANDS)) == {
        name: summary for name, (_, summary) in COMMANDS.items()
    }
    assert subcommand_helps(build_parser(COMMANDS, chosen="")) == subcommand_helps(
        build_parser(COMMANDS)
    )


@pytest.mark.parametrize("command", KIT_COMMANDS)
def test_a_kit_command_s_help_loads_nothing_heavy(command: str) -> None:
    loaded = modules_loaded_by(command, "--help")
    own = COMMANDS[command][0]
    assert own in loaded
    assert sorted(name for name in loaded if name.startswith(HEAVY)) == []
    others = {module for module, _ in COMMANDS.values() if module != own}
    assert loaded & others <= USES.get(command, set())


def test_the_list_of_commands_loads_none_of_them() -> None:
    loaded = modules_loaded_by("--help")
    assert not loaded & {module for module, _ in COMMANDS.values()}


@pytest.mark.parametrize("command", tuple(COMMANDS))
def test_every_command_still_has_its_help_and_options(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([command, "--help"], commands=COMMANDS)
    assert exited.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith(f"usage: agon-kit {command} ")
    assert "options:" in shown


def test_an_unknown_command_is_refused_with_the_list(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["plya"])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert "invalid choice: 'plya'" in error
    assert "'play'" in error
