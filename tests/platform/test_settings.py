"""Every settings module refuses a sandbox it does not know at start, naming the allowed
ones, instead of failing each match later with "the sandbox failed"."""

from __future__ import annotations

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
