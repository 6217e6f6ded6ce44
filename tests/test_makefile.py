"""`make test`, CI's command, with a stand-in for pytest: what it does with pytest's exit
status and the environment it gives the suite. Its prerequisites (preparing the machine,
the linters) are left out with `make -o`."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO_DIR = Path(__file__).resolve().parents[1]
MAKE = shutil.which("make") or "make"


def make_test(tmp_path: Path, pytest_exit: int) -> subprocess.CompletedProcess[str]:
    """`make test` with a pytest that prints its environment and exits `pytest_exit`."""
    stand_in = tmp_path / "pytest"
    stand_in.write_text(f"#!/bin/sh\nenv\nexit {pytest_exit}\n")
    stand_in.chmod(0o755)
    environment = {key: value for key, value in os.environ.items() if not key.startswith("MAKE")}
    return subprocess.run(  # noqa: S603 - make and our arguments
        [MAKE, "-C", str(REPO_DIR), "-o", "prepare-test", "-o", "lint", "test", f"BIN={tmp_path}"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("pytest_exit", [1, 2, 5])
def test_it_fails_when_pytest_fails_or_collects_no_test(tmp_path: Path, pytest_exit: int) -> None:
    done = make_test(tmp_path, pytest_exit)
    assert done.returncode != 0, done.stdout + done.stderr


def test_it_passes_when_pytest_passes(tmp_path: Path) -> None:
    done = make_test(tmp_path, 0)
    assert done.returncode == 0, done.stdout + done.stderr


def test_it_requires_every_real_part_the_suite_needs(tmp_path: Path) -> None:
    """No test may skip for lack of Docker, bubblewrap, Chromium, ... (tests.required)."""
    done = make_test(tmp_path, 0)
    assert "AGON_TEST_REQUIRE=all" in done.stdout.splitlines()
