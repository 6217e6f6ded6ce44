"""Every settings module refuses a sandbox it does not know at start, naming the allowed
ones, instead of failing each match later with "the sandbox failed"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.deploy.support import production_environment, run_python

NON_PRODUCTION = ("base", "local", "test")


def import_settings(module: str, env: dict[str, str]) -> tuple[int, str]:
    done = run_python(["-c", f"import agon.settings.{module}"], env)
    return done.returncode, done.stdout + done.stderr


@pytest.mark.parametrize("module", NON_PRODUCTION)
def test_it_refuses_an_unknown_sandbox_at_start(module: str, tmp_path: Path) -> None:
    env = {"AGON_SANDBOX": "bwarp", "AGON_VAR_DIR": str(tmp_path)}
    status, output = import_settings(module, env)
    assert status != 0
    assert "AGON_SANDBOX must be one of auto, docker, bwrap, none, not 'bwarp'" in output


def test_production_refuses_an_unknown_sandbox_at_start() -> None:
    status, output = import_settings("production", production_environment(AGON_SANDBOX="bwarp"))
    assert status != 0
    assert "AGON_SANDBOX must be one of auto, docker, bwrap, none, not 'bwarp'" in output


@pytest.mark.parametrize("module", NON_PRODUCTION)
@pytest.mark.parametrize("sandbox", ["auto", "docker", "bwrap", "none"])
def test_it_takes_every_known_sandbox(module: str, sandbox: str, tmp_path: Path) -> None:
    env = {"AGON_SANDBOX": sandbox, "AGON_VAR_DIR": str(tmp_path)}
    status, output = import_settings(module, env)
    assert status == 0, output


def test_the_embedded_setup_keeps_bounded_caches_in_memory(tmp_path: Path) -> None:
    """Without AGON_CACHE_URL each process keeps at most 300 small entries and 48 timelines
    (each under a MiB: tests/platform/matches/test_timeline.py), dropping the least
    recently used."""
    shown = run_python(
        [
            "-c",
            "import json, agon.settings.local as s; "
            "print(json.dumps([s.CACHES, s.AGON_RATE_LIMIT_REDIS_URL]))",
        ],
        {"AGON_VAR_DIR": str(tmp_path)},
    )
    assert shown.returncode == 0, shown.stderr
    caches, limits_redis = json.loads(shown.stdout)
    assert caches == {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "agon",
            "OPTIONS": {"MAX_ENTRIES": 300, "CULL_FREQUENCY": 4},
        },
        "timelines": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "agon-timelines",
            "OPTIONS": {"MAX_ENTRIES": 48, "CULL_FREQUENCY": 4},
        },
    }
    assert limits_redis == "", "rate limits count in the database's table"
