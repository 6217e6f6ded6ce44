"""The private events' rules hold on SQLite too, the embedded default `agon up` runs on:
who sees a private match (its lists are read in plain SQL with a subquery of the ORM's),
consent and withdrawal, what pauses a bot or counts head to head, and a bot renamed,
retired, deleted or measured against as a public baseline, what the public datasets
hold (a match made private is taken out), a competition's season from entry to
archive (its phase steps under SQLite's write lock rather than a row lock), and a match's
analysis (beat's choice under the day's budget, the claim of a run, owners' requests, who
reads a bot's own evaluations), the notifications API (settings, webhooks, deliveries),
and a season played by real workers on SQLite and the file-system broker, `agon up`'s
stack (tests/platform/pipeline/test_competition_season.py).
The same test files run in a pytest of their own, with the test settings pointed at a
SQLite file (this process's are PostgreSQL's): its test database is a file too
(AGON_TEST_SQLITE_FILE), with `agon up`'s options, which the season's workers share."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.platform.pipeline.support import REPO_DIR

FILES = (
    "tests/platform/matches/test_private_matches.py",
    "tests/platform/tournaments/test_consent_and_withdrawal.py",
    "tests/platform/bots/test_broken_bots.py",
    "tests/platform/matches/test_head_to_head.py",
    "tests/platform/api/test_bot_lifecycle.py",
    "tests/platform/api/test_bot_reads.py",
    "tests/platform/api/test_version_test_baselines.py",
    "tests/platform/bots/test_retired_bots.py",
    "tests/platform/datasets/test_building.py",
    "tests/platform/datasets/test_api_and_pull.py",
    "tests/platform/competitions/test_season.py",
    "tests/platform/competitions/test_api_and_pages.py",
    "tests/platform/analysis/test_services.py",
    "tests/platform/analysis/test_api.py",
    "tests/platform/api/test_notifications.py",
    "tests/platform/pipeline/test_competition_season.py",
)


@pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3",
    reason="this run is on SQLite already: the files run here directly",
)
def test_the_private_events_tests_pass_on_sqlite(tmp_path: Path) -> None:
    env = dict(os.environ)
    env["AGON_TEST_DATABASE_URL"] = f"sqlite:///{tmp_path / 'agon.sqlite3'}"
    env["AGON_TEST_SQLITE_FILE"] = str(tmp_path / "test-agon.sqlite3")
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
