"""Logs: JSON lines with their context for machines, plain text for `agon up`."""

from __future__ import annotations

import io
import json
import logging
import logging.config
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from pytest_django import Settings

from agon.logs import log_context, logging_config
from agon.matches.tasks import execute_queued_match
from tests.deploy.support import REPO_DIR, clean_environment, production_environment, run_python
from tests.platform.pipeline.support import wait_for
from tests.platform.s3 import free_port

LOG_A_LINE = (
    "import django, logging; django.setup(); "
    "logging.getLogger('agon.test').warning('hello %s', 'there', extra={'match_id': 7})"
)


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class JsonLog:
    """What the JSON handler wrote, one object a line."""

    def __init__(self, stream: io.StringIO) -> None:
        self.stream = stream

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stream.getvalue().splitlines()]

    def of(self, logger: str) -> list[dict[str, Any]]:
        return [line for line in self.lines() if line["logger"] == logger]


@pytest.fixture
def json_log() -> Iterator[JsonLog]:
    """The JSON configuration of production, writing to a buffer instead of stdout; the
    logging of the tests is put back afterwards."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    stream = io.StringIO()
    config = logging_config(log_format="json", level="INFO")
    config["handlers"]["console"]["stream"] = stream
    logging.config.dictConfig(config)
    try:
        yield JsonLog(stream)
    finally:
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
        for handler in handlers:
            root.addHandler(handler)
        root.setLevel(level)


def test_a_json_line_has_timestamp_level_logger_message_and_the_extra_fields(
    json_log: JsonLog,
) -> None:
    logging.getLogger("agon.test").warning("match %s is odd", 12, extra={"seat": 1})

    (line,) = json_log.lines()
    timestamp = datetime.fromisoformat(line.pop("timestamp"))
    assert abs(datetime.now(UTC) - timestamp) < timedelta(minutes=1)
    assert line == {
        "level": "WARNING",
        "logger": "agon.test",
        "message": "match 12 is odd",
        "seat": 1,
    }


def test_records_inside_a_log_context_carry_its_fields_until_it_ends(json_log: JsonLog) -> None:
    log = logging.getLogger("agon.test")
    with log_context(match_id=5, task="agon.matches.tasks.execute_queued_match"):
        with log_context(seat=0):
            log.info("inner")
        log.info("outer", extra={"task": "given by the call wins"})
    log.info("after")

    inner, outer, after = json_log.lines()
    assert (inner["match_id"], inner["seat"], inner["task"]) == (
        5,
        0,
        "agon.matches.tasks.execute_queued_match",
    )
    assert outer["match_id"] == 5 and "seat" not in outer
    assert outer["task"] == "given by the call wins"
    assert "match_id" not in after


def test_an_exception_is_logged_with_its_traceback_in_one_line(json_log: JsonLog) -> None:
    try:
        raise RuntimeError("the sandbox is gone")
    except RuntimeError:
        logging.getLogger("agon.test").exception("match 3 failed")

    (line,) = json_log.lines()
    assert line["level"] == "ERROR"
    assert "RuntimeError: the sandbox is gone" in line["exc_info"]
    assert "Traceback" in line["exc_info"]


@pytest.mark.django_db(transaction=True)  # the task closes the connection when it ends
def test_a_match_task_logs_with_its_match_and_task_ids(json_log: JsonLog) -> None:
    result = execute_queued_match.apply(args=(987654,))

    assert result.get() is False
    (line,) = [
        line for line in json_log.of("agon.matches.services") if "unknown" in line["message"]
    ]
    assert line["match_id"] == 987654
    assert line["task_id"] == result.id
    assert line["task"] == "agon.matches.tasks.execute_queued_match"


@pytest.fixture
def request_log(settings: Settings) -> None:
    settings.MIDDLEWARE = ["agon.logs.RequestLogMiddleware", *settings.MIDDLEWARE]
    settings.AGON_REQUEST_LOG_QUIET_PATHS = ["/api/"]


@pytest.mark.django_db
@pytest.mark.usefixtures("request_log")
def test_each_request_is_a_line_with_method_path_status_and_duration(json_log: JsonLog) -> None:
    assert Client().get("/api/games/").status_code == 200
    assert Client().post("/api/bots/", {}).status_code == 401

    games, bots = json_log.of("agon.requests")
    assert {key: games[key] for key in ("level", "method", "path", "status")} == {
        "level": "INFO",
        "method": "GET",
        "path": "/api/games/",
        "status": 200,
    }
    assert 0 < games["duration_ms"] < 60_000
    assert (bots["method"], bots["path"], bots["status"]) == ("POST", "/api/bots/", 401)
    assert bots["message"].startswith("POST /api/bots/ 401 ")


@pytest.mark.django_db
@pytest.mark.usefixtures("request_log")
def test_quiet_paths_are_logged_only_when_they_fail(json_log: JsonLog) -> None:
    assert Client().get("/api/").status_code == 200
    assert Client().get("/api/", headers={"accept": "text/plain"}).status_code >= 400

    (failed,) = json_log.of("agon.requests")
    assert failed["path"] == "/api/" and failed["status"] >= 400


def test_production_writes_json_lines_on_stdout() -> None:
    ran = run_python(["-c", LOG_A_LINE], production_environment())

    assert ran.returncode == 0, ran.stderr
    (line,) = [json.loads(text) for text in ran.stdout.splitlines()]
    assert (line["level"], line["logger"], line["message"]) == (
        "WARNING",
        "agon.test",
        "hello there",
    )
    assert line["match_id"] == 7
    assert ran.stderr == ""


def test_plain_text_stays_the_default_of_the_embedded_setup(tmp_path: Path) -> None:
    env = {"DJANGO_SETTINGS_MODULE": "agon.settings.local", "AGON_VAR_DIR": str(tmp_path)}
    ran = run_python(["-c", LOG_A_LINE], env)

    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == ""
    assert ran.stderr.rstrip("\n").endswith(" WARNING agon.test hello there")
    assert not ran.stderr.lstrip().startswith("{")


def test_the_format_is_chosen_by_agon_log_format(tmp_path: Path) -> None:
    env = {
        "DJANGO_SETTINGS_MODULE": "agon.settings.local",
        "AGON_VAR_DIR": str(tmp_path),
        "AGON_LOG_FORMAT": "JSON",
    }
    ran = run_python(["-c", LOG_A_LINE], env)

    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["message"] == "hello there"
    plain = run_python(["-c", LOG_A_LINE], production_environment(AGON_LOG_FORMAT="plain"))
    assert plain.stdout == "" and "WARNING agon.test hello there" in plain.stderr


def test_gunicorn_with_the_platforms_configuration_writes_json_lines_only(
    tmp_path: Path,
) -> None:
    port = free_port()
    env = production_environment(
        AGON_ALLOWED_HOSTS="127.0.0.1",
        AGON_SSL_REDIRECT="false",
        AGON_VAR_DIR=str(tmp_path),
    )
    output = tmp_path / "gunicorn.log"
    with output.open("wb") as log:
        server = subprocess.Popen(  # noqa: S603 - the test's own interpreter and arguments
            [
                *[sys.executable, "-m", "gunicorn", "--config", "python:agon.gunicorn_conf"],
                *["--bind", f"127.0.0.1:{port}", "--workers", "1", "--access-logfile", "-"],
                "agon.wsgi",
            ],
            cwd=REPO_DIR,
            env=clean_environment(env),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for(
            lambda: server.poll() is None and answers(port),
            timeout=60,
            what="gunicorn to answer",
            explain=lambda: output.read_text(),
        )
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/static/nothing.css")
        assert missing.value.code == 404
    finally:
        server.terminate()
        server.wait(timeout=30)

    lines = [json.loads(text) for text in output.read_text().splitlines()]
    loggers = {line["logger"] for line in lines}
    assert "gunicorn.error" in loggers, "gunicorn's own records are JSON too"
    (request,) = [line for line in lines if line["logger"] == "agon.requests"]
    assert (request["method"], request["path"], request["status"]) == (
        "GET",
        "/static/nothing.css",
        404,
    )
    assert "gunicorn.access" not in loggers, "requests are logged once, by the platform"
