"""Numbers at and above 2**53 keep every digit on both databases the platform runs on:
SQLite (`agon up`'s, in a process of its own under `agon.settings.local`, as `agon up`
runs) and PostgreSQL (this process's test database). The checks are in
`tests.platform.wide_numbers`; before TournamentGame.seed was a SeedField, the
tournaments there never finished on SQLite."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.platform.pipeline.support import REPO_DIR
from tests.platform.wide_numbers import CHECKS


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database migrated as `agon up` migrates it, copied for each check."""
    var_dir = tmp_path_factory.mktemp("wide-numbers-template")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
        cwd=REPO_DIR,
        env=_local_env(var_dir),
        check=True,
        timeout=300,
    )
    return var_dir / "agon.sqlite3"


def _local_env(var_dir: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("AGON_") and key != "DJANGO_SETTINGS_MODULE"
    }
    env.update(
        DJANGO_SETTINGS_MODULE="agon.settings.local",
        AGON_VAR_DIR=str(var_dir),
        PYTHONPATH=os.pathsep.join([str(REPO_DIR), str(REPO_DIR / "platform")]),
    )
    return env


ON_POSTGRESQL = pytest.param("postgresql", marks=pytest.mark.django_db(transaction=True))
"""Transactional: a check migrates the database back and forth."""


@pytest.fixture(params=["sqlite", ON_POSTGRESQL])
def database(request: pytest.FixtureRequest) -> str:
    """Where the check runs: a copy of the migrated SQLite file (in a process of its
    own), or this process's test database."""
    name: str = request.param
    return name


@pytest.mark.parametrize("check", list(CHECKS))
def test_wide_numbers_keep_every_digit(
    check: str, database: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    if database == "postgresql":
        CHECKS[check]()
        return
    template: Path = request.getfixturevalue("migrated_sqlite")
    var_dir = tmp_path / "var"
    var_dir.mkdir()
    shutil.copy(template, var_dir / "agon.sqlite3")
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [sys.executable, "-m", "tests.platform.wide_numbers", check],
        cwd=REPO_DIR,
        env=_local_env(var_dir),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"{check} on SQLite:\n{done.stdout}\n{done.stderr[-4000:]}"
