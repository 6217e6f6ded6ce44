"""`agon health [--worker]`: JSON on one line, exit 0 when healthy and 1 when not; with
--worker, a real match through the configured sandbox that leaves nothing behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.db import connections
from pytest_django import Settings

from agon.cli import main
from agon.ops import health
from sandbox.backends import bwrap as bwrap_backend
from sandbox.backends.bwrap import STAGING_PREFIX
from tests.platform.ops.support import closed_port
from tests.platform.pipeline import support as pipeline
from tests.sandbox.support import require_backend

pytestmark = pytest.mark.django_db

Run = Callable[..., tuple[int, Any]]


@pytest.fixture
def agon_health(capsys: pytest.CaptureFixture[str]) -> Run:
    """`agon health ARGS...` in this process: its exit status and the JSON it printed."""

    def run(*args: str) -> tuple[int, Any]:
        code = main(["health", *args])
        out = capsys.readouterr().out.strip().splitlines()
        assert len(out) == 1, out
        return code, json.loads(out[0])

    return run


@pytest.fixture
def bwrap(settings: Settings, tmp_path: Path) -> None:
    settings.AGON_SANDBOX = "bwrap"
    settings.AGON_WORK_DIR = tmp_path / "work"


def leftovers() -> dict[str, Any]:
    """What a self-test could leave: child processes, bot copies, unpacked bots."""
    children = set(pipeline.process_tree(os.getpid())) - {os.getpid()}
    copies = list(Path(tempfile.gettempdir()).glob(f"{STAGING_PREFIX}{os.getpid()}-*"))
    return {"children": children, "copies": copies}


def test_health_checks_the_database_and_the_broker(agon_health: Run) -> None:
    code, report = agon_health()
    assert code == 0
    assert report["status"] == "ok"
    assert sorted(report["checks"]) == ["broker", "database"]


@pytest.mark.usefixtures("bwrap")
def test_health_of_a_worker_plays_a_boxed_match_with_bwrap_and_leaves_nothing(
    agon_health: Run, settings: Settings
) -> None:
    before = leftovers()
    code, report = agon_health("--worker")
    assert code == 0, report
    sandbox = report["checks"]["sandbox"]
    assert sandbox["ok"] is True
    assert sandbox["backend"] == "bwrap"
    assert sandbox["boxes"] == "fork server"  # the default where the machine supports it
    assert sandbox["turns"] > 0
    assert sandbox["seconds"] < 10
    assert leftovers() == before
    assert list(settings.AGON_WORK_DIR.iterdir()) == []


@pytest.mark.usefixtures("bwrap")
def test_health_of_a_worker_says_when_its_boxes_are_started_by_bubblewrap(
    agon_health: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGON_SANDBOX_FORK_SERVER", "0")
    before = leftovers()
    code, report = agon_health("--worker")
    assert code == 0, report
    assert report["checks"]["sandbox"]["boxes"] == "bubblewrap (AGON_SANDBOX_FORK_SERVER=0)"
    assert leftovers() == before


@pytest.mark.usefixtures("bwrap")
def test_health_of_a_worker_leaves_a_fork_server_it_did_not_start_running(
    agon_health: Run,
) -> None:
    require_backend("bwrap")
    bwrap_backend.BwrapBackend(fork_server=True).forks_boxes()  # the worker's own server
    server = bwrap_backend.fork_server("bwrap")
    try:
        code, report = agon_health("--worker")
        assert code == 0, report
        assert server.alive()
        assert bwrap_backend.fork_server("bwrap") is server
    finally:
        bwrap_backend.stop_fork_server()


@pytest.mark.usefixtures("bwrap")
def test_health_of_a_worker_fails_clearly_when_the_sandbox_cannot_start(
    agon_health: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap to be found
    code, report = agon_health("--worker")
    assert code == 1
    assert report["status"] == "failing"
    assert report["failed"] == ["sandbox"]
    assert "bubblewrap is not installed" in report["checks"]["sandbox"]["error"]
    assert report["checks"]["database"]["ok"] and report["checks"]["broker"]["ok"]


@pytest.mark.usefixtures("bwrap")
def test_health_of_a_worker_fails_when_the_boxed_bot_faults(
    agon_health: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A box that starts but cannot run a bot (here: the bot itself fails) is unhealthy."""
    monkeypatch.setattr(health, "SELF_TEST_BOT", b"import sys\nsys.exit('no bot here')\n")
    code, report = agon_health("--worker")
    assert code == 1
    error = report["checks"]["sandbox"]["error"]
    assert error.startswith("RuntimeError: the boxed bot faulted (crash on its 1st move (game turn")
    assert "no bot here" in error
    assert leftovers()["children"] == set()


def test_health_of_a_worker_plays_its_match_in_docker_when_that_is_the_sandbox(
    agon_health: Run, settings: Settings, tmp_path: Path
) -> None:
    require_backend("docker")
    settings.AGON_SANDBOX = "docker"
    settings.AGON_WORK_DIR = tmp_path / "work"
    code, report = agon_health("--worker")
    assert code == 0, report
    assert report["checks"]["sandbox"]["backend"] == "docker"
    assert report["checks"]["sandbox"]["turns"] > 0


@pytest.mark.parametrize(
    ("variable", "value", "complaint"),
    [
        ("AGON_BOT_IMAGE", "agon-bot:no-such-tag", "the bot image agon-bot:no-such-tag is missing"),
        ("DOCKER_HOST", "tcp://127.0.0.1:{closed}", "no Docker engine answers at tcp://127.0.0.1:"),
    ],
)
def test_health_of_a_docker_worker_fails_clearly_without_its_engine_or_image(
    agon_health: Run,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
    value: str,
    complaint: str,
) -> None:
    settings.AGON_SANDBOX = "docker"
    monkeypatch.setenv(variable, value.format(closed=closed_port()))
    code, report = agon_health("--worker")
    assert code == 1
    assert report["failed"] == ["sandbox"]
    assert complaint in report["checks"]["sandbox"]["error"]


def test_health_of_a_worker_fails_when_uploads_would_run_unboxed(
    agon_health: Run, settings: Settings
) -> None:
    settings.AGON_SANDBOX = "none"
    settings.AGON_ALLOW_UNSANDBOXED = False
    code, report = agon_health("--worker")
    assert code == 1
    assert "would refuse every match" in report["checks"]["sandbox"]["error"]


def test_health_fails_when_the_database_is_unreachable(
    agon_health: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(connections["default"].settings_dict, "PORT", str(closed_port()))
    code, report = agon_health()
    assert code == 1
    assert report["failed"] == ["database"]


def test_health_fails_when_the_broker_is_unreachable(agon_health: Run, settings: Settings) -> None:
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{closed_port()}/0"
    code, report = agon_health()
    assert code == 1
    assert report["failed"] == ["broker"]


@pytest.mark.django_db(transaction=True)
def test_the_installed_command_runs_as_a_container_health_check_would(tmp_path: Path) -> None:
    """The `agon` entry point in a process of its own, configured by the environment (a
    worker's, multiprocess folder included: a check, run every few seconds, must not
    leave a file there each time)."""
    metrics_folder = tmp_path / "prometheus"
    metrics_folder.mkdir()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "agon.settings.test",
        "AGON_TEST_DATABASE_URL": pipeline.test_database_url(),
        "AGON_SANDBOX": "bwrap",
        "AGON_WORK_DIR": str(tmp_path / "work"),
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_folder),
    }
    agon = Path(sys.executable).parent / "agon"
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [str(agon), "health", "--worker"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["status"] == "ok"
    assert sorted(report["checks"]) == ["broker", "database", "sandbox"]
    assert list(metrics_folder.iterdir()) == []
    broken = subprocess.run(  # noqa: S603 - a fixed argv
        [str(agon), "health"],
        cwd=tmp_path,
        env={**env, "AGON_TEST_BROKER_URL": f"redis://127.0.0.1:{closed_port()}/0"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert broken.returncode == 1
    assert json.loads(broken.stdout.strip().splitlines()[-1])["failed"] == ["broker"]


def test_the_installed_command_says_which_setting_is_wrong(tmp_path: Path) -> None:
    env = {
        key: value for key, value in os.environ.items() if not key.startswith(("AGON_", "DJANGO_"))
    }
    env["DJANGO_SETTINGS_MODULE"] = "agon.settings.production"  # and none of its variables
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [str(Path(sys.executable).parent / "agon"), "health"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["failed"] == ["settings"]
    assert "EnvError: AGON_SECRET_KEY must be set" in report["error"]
