"""Fixtures for the kit's command line tests: run it in-process and read what it printed."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agon_kit.cli import COMMANDS, main
from tests.agon_kit.support import Outcome


@pytest.fixture
def agon(capsys: pytest.CaptureFixture[str]) -> Callable[..., Outcome]:
    """Every command of the kit's package, as the platform's `agon` offers them."""

    def run(*argv: str) -> Outcome:
        try:
            code = main(list(argv), commands=COMMANDS, prog="agon")
        except SystemExit as exit_:  # argparse errors and --help
            code = int(exit_.code or 0)
        captured = capsys.readouterr()
        return Outcome(code, captured.out, captured.err)

    return run
