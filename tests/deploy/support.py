"""Helpers of the deployment tests: the environment production would have, and
commands run with it in a fresh process (settings are read once, at start)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parents[2]


def production_environment(**overrides: str) -> dict[str, str]:
    """What an operator sets for `agon.settings.production` (hosts that need not exist:
    nothing here connects to them). An override of "" removes that variable."""
    values = {
        "DJANGO_SETTINGS_MODULE": "agon.settings.production",
        "AGON_SECRET_KEY": secrets.token_urlsafe(50),
        "AGON_ALLOWED_HOSTS": "agon.example.org",
        "AGON_DATABASE_URL": "postgres://agon:a-database-password@db:5432/agon",
        "AGON_BROKER_URL": "redis://redis:6379/0",
        "AGON_CACHE_URL": "redis://cache:6379/0",
        **overrides,
    }
    return {name: value for name, value in values.items() if value != ""}


def clean_environment(extra: Mapping[str, str]) -> dict[str, str]:
    """This process's environment without any Agon or Django setting, plus `extra`."""
    kept = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("AGON_", "DJANGO_", "PYTEST_"))
    }
    paths = [str(REPO_DIR), str(REPO_DIR / "platform")]
    return {**kept, "PYTHONPATH": os.pathsep.join(paths), **extra}


def run_python(
    args: list[str], env: Mapping[str, str], *, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`python ARGS` in the repository with exactly this Agon environment."""
    return subprocess.run(  # noqa: S603 - the test's own interpreter and arguments
        [sys.executable, *args],
        cwd=REPO_DIR,
        env=clean_environment(env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def manage(args: list[str], env: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    return run_python([str(REPO_DIR / "manage.py"), *args], env)
