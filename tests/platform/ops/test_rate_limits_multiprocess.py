"""Rate limits under `agon up`'s web server: two gunicorn workers, requests arriving
together, and exactly the limit gets through, whether the counts are in the embedded
setup's SQLite file or in Redis (AGON_CACHE_URL, as in production)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
import urllib3

from tests.platform.ops.support import gunicorn as serve
from tests.platform.pipeline import support as pipeline

LIMIT = 5
ATTEMPTS = 20
REDIS_URL = "redis://127.0.0.1:6379/15"
PASSWORD = "correct horse battery staple"  # noqa: S105 - a test user's password


@dataclass
class Server:
    url: str
    log: Path

    def post(self, path: str, body: dict[str, Any], token: str = "") -> tuple[int, dict[str, Any]]:
        """POST `body` as JSON, or as a multipart form when it has a `file` (bytes)."""
        if isinstance(body.get("file"), bytes):
            data, content_type = urllib3.encode_multipart_formdata(
                {**body, "file": ("main.py", body["file"])}
            )
        else:
            data, content_type = json.dumps(body).encode(), "application/json"
        headers = {"Content-Type": content_type}
        if token:
            headers["Authorization"] = f"Token {token}"
        request = urllib.request.Request(  # noqa: S310 - a local http URL
            self.url + path, data=data, headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def at_once(
        self, path: str, bodies: list[dict[str, Any]], token: str = ""
    ) -> list[tuple[int, dict[str, Any]]]:
        with ThreadPoolExecutor(max_workers=10) as pool:
            return list(pool.map(lambda body: self.post(path, body, token), bodies))

    def serving_workers(self) -> set[str]:
        """The process ids that answered requests, from the access log."""
        lines = self.log.read_text(errors="replace").splitlines()
        return {line.split()[1] for line in lines if line.startswith("access ")}


def statuses(answers: list[tuple[int, dict[str, Any]]]) -> Counter[int]:
    return Counter(status for status, _ in answers)


@pytest.fixture(params=["embedded", "redis"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """`agon up`'s settings (SQLite in a folder of its own) with low limits; for `redis`,
    the counts go to Redis under a prefix of this test's own."""
    prefix = f"agon-test-{uuid.uuid4().hex[:12]}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "agon.settings.local",
        "PYTHONPATH": os.pathsep.join(
            [str(pipeline.REPO_DIR), str(pipeline.REPO_DIR / "platform")]
        ),
        "AGON_VAR_DIR": str(tmp_path / "var"),
        "AGON_SIGNUP_RATE": f"{LIMIT}/hour",
        "AGON_SIGNIN_FAILURE_RATE": f"{LIMIT}/hour",
        "AGON_SIGNIN_ADDRESS_FAILURE_RATE": "100/hour",
        "AGON_UPLOAD_RATE": f"{LIMIT}/hour",
        "AGON_CHALLENGE_RATE": f"{LIMIT}/hour",
        "AGON_CACHE_URL": REDIS_URL if request.param == "redis" else "",
        "AGON_CACHE_KEY_PREFIX": prefix,
    }
    for name in ("AGON_DATABASE_URL", "AGON_BROKER_URL", "PROMETHEUS_MULTIPROC_DIR"):
        env.pop(name, None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
        cwd=pipeline.REPO_DIR,
        env=env,
        check=True,
        timeout=120,
    )
    log = tmp_path / "gunicorn.log"
    access_log = ["--access-logfile", "-", "--access-logformat", "access %(p)s %(s)s %(U)s"]
    try:
        with serve(env, log, args=access_log) as (_, url):
            yield Server(url, log)
    finally:
        if request.param == "redis":
            client = redis.Redis.from_url(REDIS_URL)
            for key in client.scan_iter(f"{prefix}:*"):
                client.delete(key)


def test_exactly_the_limit_gets_through_two_workers(server: Server) -> None:
    run = uuid.uuid4().hex[:8]
    signups = [{"username": f"u{run}{n}", "password": PASSWORD} for n in range(ATTEMPTS)]
    answers = server.at_once("/api/auth/register/", signups)
    assert statuses(answers) == {201: LIMIT, 429: ATTEMPTS - LIMIT}
    victim, user = [body["username"] for status, body in answers if status == 201][:2]

    wrong = [{"username": victim, "password": "wrong"}] * ATTEMPTS
    assert statuses(server.at_once("/api/auth/token/", wrong)) == {
        400: LIMIT,
        429: ATTEMPTS - LIMIT,
    }

    status, body = server.post("/api/auth/token/", {"username": user, "password": PASSWORD})
    assert status == 200, body
    token = body["token"]
    # Refused by validation (no such game, no such ladder) after being counted.
    uploads = [{"name": f"b{n}", "game": "nope", "file": b"x = 1\n"} for n in range(ATTEMPTS)]
    answers = server.at_once("/api/bots/", uploads, token)
    assert statuses(answers) == {400: LIMIT, 429: ATTEMPTS - LIMIT}
    challenges = [{"ladder": 999_999, "bots": [1, 2]}] * ATTEMPTS
    answers = server.at_once("/api/challenges/", challenges, token)
    assert statuses(answers) == {400: LIMIT, 429: ATTEMPTS - LIMIT}
    assert len(server.serving_workers()) == 2, "both workers answered"
