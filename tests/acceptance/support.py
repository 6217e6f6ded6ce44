"""The acceptance suite's view of Agon: a running `agon up` and a user's HTTP client.

`AgonUp` is `agon up` as a child process on one stack: the embedded one (SQLite, the
file-system broker, bubblewrap boxes: what `make run` gives) or the production parts
(PostgreSQL and a Redis broker and cache, still bubblewrap boxes). `User` is what a bot
author's script does over HTTP: sign up, take a token, upload bots, make tournaments,
challenges and version tests, and read them back. Nothing here reads the database:
what a test asserts is what a user sees.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import urllib3

from sandbox.cgroups import reap_orphans
from tests.platform.pipeline.support import REPO_DIR, process_tree

T = TypeVar("T")
GAME = "architekton"
"""The quickest game: two players, a few seconds a match."""
PASSWORD = "acceptance passes"  # noqa: S105 - the test users' password
EXAMPLE_BOTS = REPO_DIR / "examples" / "bots"
PORTS_VARIABLE = "AGON_TEST_PORTS"
"""`first-last`: the ports the suite may serve on (a machine's share); by default any
free port the system gives."""


def wait_for(
    check: Callable[[], T | bool | None],
    *,
    timeout: float,
    what: str,
    explain: Callable[[], str] = lambda: "",
    interval: float = 1.0,
) -> T:
    """Poll `check` until it returns something other than None or False; fail saying
    `what` was waited for (and whatever `explain` adds) after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value is not None and value is not False:
            return value  # type: ignore[return-value]  # neither None nor False
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}, in vain{explain()}")
        time.sleep(interval)


def free_port() -> int:
    """A port nobody serves on: from AGON_TEST_PORTS if set (each pytest-xdist worker
    starting at a port of its own), else any the system gives."""
    wanted = os.environ.get(PORTS_VARIABLE, "").strip()
    candidates = [0]
    if wanted:
        first, _, last = wanted.partition("-")
        ports = list(range(int(first), int(last or first) + 1))
        worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
        start = (int(worker) if worker.isdigit() else 0) * 2 % len(ports)
        candidates = ports[start:] + ports[:start]
    for candidate in candidates:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", candidate))
            except OSError:
                continue
            port: int = probe.getsockname()[1]
            return port
    raise AssertionError(f"no free port in {PORTS_VARIABLE}={wanted}")


class HttpError(AssertionError):
    def __init__(self, method: str, url: str, status: int, body: str) -> None:
        super().__init__(f"{method} {url} answered {status}: {body[:2000]}")
        self.status = status


class Client:
    """JSON over HTTP to the site, with a user's token once signed in."""

    def __init__(self, url: str, token: str = "") -> None:
        self.url = url
        self.token = token

    def request(
        self, method: str, path: str, body: Mapping[str, Any] | None = None, *, files: bool = False
    ) -> tuple[int, bytes]:
        headers = {"Accept": "application/json"}
        data = None
        if body is not None and files:
            data, headers["Content-Type"] = urllib3.encode_multipart_formdata(dict(body))
        elif body is not None:
            data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        url = path if path.startswith("http") else self.url + path
        request = urllib.request.Request(url, data=data, headers=headers, method=method)  # noqa: S310 - a local http URL
        try:
            with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def json(
        self,
        method: str,
        path: str,
        body: Mapping[str, Any] | None = None,
        *,
        files: bool = False,
        expect: int = 200,
    ) -> Any:
        status, content = self.request(method, path, body, files=files)
        if status != expect:
            raise HttpError(method, path, status, content.decode(errors="replace"))
        return json.loads(content) if content else None

    def get(self, path: str) -> Any:
        return self.json("GET", path)

    def post(self, path: str, body: Mapping[str, Any], *, expect: int = 201) -> Any:
        return self.json("POST", path, body, expect=expect)


class User(Client):
    """A signed-in user with a token, as a bot author's script is."""

    def __init__(self, url: str, username: str, token: str) -> None:
        super().__init__(url, token)
        self.username = username

    @classmethod
    def sign_up(cls, url: str, username: str) -> User:
        account = {"username": username, "password": PASSWORD}
        client = Client(url)
        client.post("/api/auth/register/", account)
        return cls(url, username, client.json("POST", "/api/auth/token/", account)["token"])

    def upload_bot(self, name: str, source: bytes, game: str = GAME) -> dict[str, Any]:
        body = {"name": name, "game": game, "file": ("main.py", source)}
        bot: dict[str, Any] = self.json("POST", "/api/bots/", body, files=True, expect=201)
        return bot

    def upload_version(self, bot_id: int, source: bytes) -> dict[str, Any]:
        body = {"file": ("main.py", source)}
        version: dict[str, Any] = self.json(
            "POST", f"/api/bots/{bot_id}/versions/", body, files=True, expect=201
        )
        return version

    def wait_active(
        self, bot_id: int, number: int, explain: Callable[[], str], timeout: float = 240
    ) -> None:
        """Until version `number` of the bot passed its validation (fails at once if it
        was rejected)."""

        def active() -> bool:
            versions = self.get(f"/api/bots/{bot_id}/")["versions"]
            version = next((v for v in versions if v["number"] == number), None)
            assert version is not None, versions
            assert version["status"] != "rejected", f"bot {bot_id} v{number}: {version}"
            return bool(version["status"] == "active")

        wait_for(
            active,
            timeout=timeout,
            what=f"bot {bot_id}'s version {number} to pass its validation",
            explain=explain,
        )

    def ladder(self, game: str = GAME, players: int = 2) -> dict[str, Any]:
        ladders = self.get("/api/ladders/")["results"]
        found = [
            ladder
            for ladder in ladders
            if (ladder["game"], ladder["players"], ladder["options"]) == (game, players, {})
        ]
        assert found, ladders
        ladder: dict[str, Any] = found[0]
        return ladder

    def wait_match(
        self, match_id: int, explain: Callable[[], str], timeout: float = 240
    ) -> dict[str, Any]:
        def finished() -> dict[str, Any] | None:
            match: dict[str, Any] = self.get(f"/api/matches/{match_id}/")
            assert match["status"] != "failed", match
            return match if match["status"] == "finished" else None

        return wait_for(
            finished, timeout=timeout, what=f"match {match_id} to finish", explain=explain
        )


# --- the bots ---------------------------------------------------------------------------------

FIRST_LEGAL = b"""\
from agon_bot import run


def act(observation, legal_actions):
    return legal_actions[0]


run(act)
"""

LAST_LEGAL = b"""\
from agon_bot import run


def act(observation, legal_actions):
    return legal_actions[-1]


run(act)
"""

RANDOM = (EXAMPLE_BOTS / "random_bot.py").read_bytes()
LOOKAHEAD = (EXAMPLE_BOTS / "lookahead_bot.py").read_bytes()


# --- agon up --------------------------------------------------------------------------------


class AgonUp:
    """`agon up` in its own session, its terminal written to a file beside its data
    folder: any pytest-xdist worker may attach to it (`record`), and the run's end stops it
    (tests/conftest.py), whichever process started it."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.stack: str = record["stack"]
        self.pid: int = record["pid"]
        self.started: str = record["started"]
        self.url: str = record["url"]
        self.var_dir = Path(record["var_dir"])
        self.terminal = self.var_dir.parent / "agon-up-terminal.log"

    @classmethod
    def start(cls, stack: str, var_dir: Path, env: Mapping[str, str], **extra: Any) -> AgonUp:
        port = free_port()
        var_dir.mkdir(parents=True, exist_ok=True)
        with (var_dir.parent / "agon-up-terminal.log").open("wb") as terminal:
            process = subprocess.Popen(  # noqa: S603 - a fixed argv
                [
                    sys.executable,
                    "-m",
                    "agon.cli",
                    "up",
                    "--port",
                    str(port),
                    "--status-seconds",
                    "5",
                    "--stop-timeout",
                    "10",
                    "--games",
                    GAME,
                ],
                cwd=REPO_DIR,
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=terminal,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        _CHILDREN[process.pid] = process
        started = process_tree(process.pid).get(process.pid, "")
        return cls(
            {
                "stack": stack,
                "pid": process.pid,
                "started": started,
                "url": f"http://127.0.0.1:{port}",
                "var_dir": str(var_dir),
                **extra,
            }
        )

    def lines(self) -> list[str]:
        if not self.terminal.exists():
            return []
        return self.terminal.read_text(errors="replace").splitlines()

    def running(self) -> bool:
        child = _CHILDREN.get(self.pid)
        if child is not None:
            return child.poll() is None
        return process_tree(self.pid).get(self.pid) == self.started

    def explain(self, lines: int = 40) -> str:
        """For failure messages: the end of agon up's terminal and of its children's log."""
        log = self.var_dir / "agon-up.log"
        tail = log.read_text(errors="replace").splitlines()[-lines:] if log.exists() else []
        return (
            f"\n--- the end of agon up's terminal ({self.stack}) ---\n"
            + "\n".join(self.lines()[-15:])
            + f"\n--- the end of its children's log ({log}) ---\n"
            + "\n".join(tail)
        )

    def wait_ready(self, timeout: float) -> None:
        log = self.var_dir / "agon-up.log"
        listening = f"Listening at: {self.url} "

        def ready() -> bool:
            self.alive()
            # Its own web server answering, not another process on the same port.
            return any("ready: open" in line for line in self.lines()) and (
                log.exists() and listening in log.read_text(errors="replace")
            )

        wait_for(
            ready, timeout=timeout, what=f"agon up ({self.stack}) to serve", explain=self.explain
        )

    def alive(self) -> None:
        if not self.running():
            raise AssertionError(f"agon up ({self.stack}) is gone{self.explain()}")

    def stop(self) -> None:
        """Ctrl-C, as its user would; then SIGKILL to any process of its tree still there
        (the very process: a pid reused since is left alone)."""
        processes = process_tree(self.pid) if self.running() else {}
        if processes:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGINT)
            deadline = time.monotonic() + 40
            while self.running() and time.monotonic() < deadline:
                time.sleep(0.2)
        for pid, started in processes.items():
            if process_tree(pid).get(pid) == started:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        child = _CHILDREN.pop(self.pid, None)
        if child is not None:
            child.wait(timeout=30)
        reap_orphans()


_CHILDREN: dict[int, subprocess.Popen[bytes]] = {}
"""The `agon up` processes this process started (waited for when stopped)."""
