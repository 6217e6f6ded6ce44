"""`agon up` from nothing: a fresh data folder with the embedded defaults (SQLite, the
file-system broker, bwrap boxes), the example bots validated and playing ranked matches,
the API answering; then Ctrl-C stops every process it started, with exit status 0."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.cgroups import reap_orphans
from tests.platform.ops.support import metric
from tests.platform.pipeline.support import (
    REPO_DIR,
    assert_processes_gone,
    process_tree,
    wait_for,
)

RANKED_PLAYED = re.compile(r"matches played \((\d+) ranked\)")
GAME = "architekton"
"""The game the example bots are entered for: a quick one, so the test is."""


class Up:
    """`agon up` as a child process, its output collected line by line."""

    def __init__(self, var_dir: Path, port: int) -> None:
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith("AGON_") and key != "DJANGO_SETTINGS_MODULE"
        }
        env.update(
            AGON_VAR_DIR=str(var_dir),
            PYTHONPATH=os.pathsep.join([str(REPO_DIR), str(REPO_DIR / "platform")]),
            NO_COLOR="1",
        )
        self.port = port
        self.lines: list[str] = []
        self.process = subprocess.Popen(  # noqa: S603 - a fixed argv
            [
                sys.executable,
                "-m",
                "agon.cli",
                "up",
                "--port",
                str(port),
                "--status-seconds",
                "1",
                "--stop-timeout",
                "30",
                "--games",
                GAME,
            ],
            cwd=REPO_DIR,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip())

    def output(self) -> str:
        return "\n".join(self.lines)

    def explain(self) -> str:
        return "\n--- the end of agon up's output ---\n" + "\n".join(self.lines[-80:])

    def saw(self, pattern: str) -> re.Match[str] | None:
        if self.process.poll() is not None:
            raise AssertionError(f"agon up exited with {self.process.returncode}{self.explain()}")
        return next((m for line in self.lines if (m := re.search(pattern, line))), None)

    def get(self, path: str) -> tuple[int, bytes]:
        url = f"http://127.0.0.1:{self.port}{path}"
        # A first request on a loaded machine (imports, SQLite warming up) took over 10 s.
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status, response.read()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def up(tmp_path: Path) -> Iterator[Up]:
    up = Up(tmp_path / "var", free_port())
    try:
        yield up
    finally:
        if up.process.poll() is None:
            # agon up and each of its children lead a process group: kill every group.
            for pid in process_tree(up.process.pid):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
            reap_orphans()
        up.process.wait(timeout=30)


def test_agon_up_runs_the_platform_with_the_example_bots_and_stops_cleanly(up: Up) -> None:
    wait_for(
        lambda: up.saw(
            rf"ready: open http://127\.0\.0\.1:{up.port}/ .* http://127\.0\.0\.1:{up.port}/api/"
        ),
        timeout=120,
        what="agon up to say where to open the API",
        explain=up.explain,
    )
    status, body = up.get("/api/ladders/")
    assert status == 200
    ladders = json.loads(body)["results"]
    assert {ladder["players"] for ladder in ladders} >= {2, 3, 4}
    assert up.get("/api/docs/")[0] == 200
    # What production serves to users: no debug pages, JSON errors under /api/.
    assert up.saw(r"agon \| serving with debug off"), up.explain()
    with pytest.raises(urllib.error.HTTPError) as missing:
        up.get("/api/no-such-thing/")
    assert (missing.value.code, missing.value.headers["Content-Type"]) == (404, "application/json")
    with pytest.raises(urllib.error.HTTPError) as missing:
        up.get("/no-such-page/")
    page = missing.value.read().decode()
    assert "<h1>Page not found</h1>" in page and "URLconf" not in page
    assert "Content-Security-Policy" in missing.value.headers

    def ranked_played() -> bool:
        up.saw("")  # fails at once if agon up died
        return any(int(m.group(1)) > 0 for line in up.lines if (m := RANKED_PLAYED.search(line)))

    wait_for(
        ranked_played,
        timeout=240,
        what="the example bots to pass validation and play a ranked match",
        explain=up.explain,
        interval=0.5,
    )
    # The worker's pool counts the matches, gunicorn's workers serve them: one shared
    # multiprocess folder (agon.ops.metrics).
    for _ in range(4):  # either gunicorn worker may answer
        status, body = up.get("/metrics")
        assert status == 200
        text = body.decode()
        assert metric(text, "agon_matches_finished_total", game=GAME, kind="ranked") >= 1
        assert metric(text, "agon_matches_finished_total", game=GAME, kind="validation") >= 4
    status, body = up.get("/healthz")
    assert (status, json.loads(body)["status"]) == (200, "ok")
    output = up.output()
    assert f"example bots of agon-examples from examples/bots: 4 for {GAME}" in output
    assert "anchors on every ladder: mcts-1, mcts-2, mcts-3" in output
    assert re.search(r"\d+ new versions entered for validation", output)
    assert "Traceback" not in output, up.explain()
    # The terminal has agon up's own lines only, the address again after each status;
    # Celery's banner and the children's lines are in the log it named.
    children = [line for line in up.lines if re.match(r"^ *(web|worker|beat) \|", line)]
    assert not children, up.explain()
    assert up.saw(rf"^  agon \| open http://127\.0\.0\.1:{up.port}/ "), up.explain()
    named = up.saw(r"their output goes to (\S+)$")
    assert named, up.explain()
    log = (REPO_DIR / named.group(1)).read_text()
    assert re.search(
        r"^\S+ \S+ worker \| .*Task agon\.matches\.tasks\.execute_queued_match", log, re.M
    )
    assert re.search(r'^\S+ \S+    web \| .*"GET /api/ladders/', log, re.M)

    processes = process_tree(up.process.pid)
    assert len(processes) >= 1 + 3 + 2  # itself; web, worker, beat; gunicorn's two workers
    up.process.send_signal(signal.SIGINT)
    assert up.process.wait(timeout=60) == 0, up.explain()
    up.reader.join(timeout=10)
    assert up.lines[-1].endswith("stopped"), up.explain()
    assert_processes_gone(processes, what="every process of agon up to be gone", timeout=15)
