"""Fixtures for the `agon` command line tests: run it in-process and read what it printed."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agon.cli import main
from tests.agon_kit.support import Outcome


@pytest.fixture
def agon(capsys: pytest.CaptureFixture[str]) -> Callable[..., Outcome]:
    def run(*argv: str) -> Outcome:
        try:
            code = main(list(argv))
        except SystemExit as exit_:  # argparse errors and --help
            code = int(exit_.code or 0)
        captured = capsys.readouterr()
        return Outcome(code, captured.out, captured.err)

    return run
