"""The analysis's services and API hold on SQLite too, the embedded default `agon up`
runs on (beat's choice under the day's budget, the claim of a run, owners' requests, who
reads what): the same test files in a pytest of their own, with the test settings
pointed at a SQLite file (this process's are PostgreSQL's). The acceptance suite plays
it all on a running `agon up` of each stack (tests/acceptance/test_analysis.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.platform.pipeline.support import REPO_DIR

FILES = (
    "tests/platform/analysis/test_services.py",
    "tests/platform/analysis/test_api.py",
)


@pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3",
    reason="this run is on SQLite already: the files run here directly",
)
def test_the_analysis_tests_pass_on_sqlite(tmp_path: Path) -> None:
    env = dict(os.environ)
    env["AGON_TEST_DATABASE_URL"] = f"sqlite:///{tmp_path / 'agon.sqlite3'}"
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", *FILES],
        cwd=REPO_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "skipped" not in done.stdout.splitlines()[-1]
