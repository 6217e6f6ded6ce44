"""The kit's commands that talk to a site, run as an author runs them (`python -m
agon_kit`, in a process of its own) against a real server and a real worker:
`login` keeps the token, `submit` uploads a folder and follows its validation, `test`
starts a version test and follows it to its verdict; and every way they fail is one
clear line, never a traceback."""

from __future__ import annotations

import os
import select
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from pytest_django.live_server_helper import LiveServer

from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import EXAMPLE_BOTS, REPO_DIR, only_ladder, signed_in_client

pytestmark = pytest.mark.django_db(transaction=True)


def kit_environment(home: Path, server: str, token: str | None = None) -> dict[str, str]:
    environment = {
        **os.environ,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "AGON_SERVER": server,
        "PYTHONPATH": f"{REPO_DIR}{os.pathsep}{REPO_DIR / 'platform'}",
    }
    environment.pop("AGON_TOKEN", None)
    if token is not None:
        environment["AGON_TOKEN"] = token
    return environment


def kit(
    *arguments: str, home: Path, server: str, stdin: str = "", token: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - our own command
        [sys.executable, "-m", "agon_kit", *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        env=kit_environment(home, server, token),
        timeout=900,
        check=False,
    )


def started_kit(*arguments: str, home: Path, server: str) -> subprocess.Popen[str]:
    return subprocess.Popen(  # noqa: S603 - our own command
        [sys.executable, "-m", "agon_kit", *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=kit_environment(home, server),
    )


def next_line(process: subprocess.Popen[str], seconds: float = 60) -> str:
    assert process.stdout is not None
    readable, _, _ = select.select([process.stdout], [], [], seconds)
    assert readable, f"no line from {process.args!r} in {seconds} s"
    return process.stdout.readline().rstrip("\n")


def token_of(username: str) -> str:
    client = signed_in_client(username)
    header: str = client._credentials["HTTP_AUTHORIZATION"]  # type: ignore[attr-defined]
    return header.removeprefix("Token ")


def test_an_author_logs_in_submits_a_folder_and_tests_a_new_version(
    pipeline: Pipeline, live_server: LiveServer, tmp_path: Path
) -> None:
    only_ladder("akropolis", 2)
    token = token_of("dana")
    worker = pipeline.start_worker(concurrency=2)
    home = tmp_path / "home"
    home.mkdir()

    logged_in = kit("login", home=home, server=live_server.url, stdin=f"{token}\n")
    assert logged_in.returncode == 0, logged_in.stderr
    assert f"signed in to {live_server.url} as dana" in logged_in.stdout
    kept = home / "config" / "agon" / "token"
    assert kept.read_text().strip() == token
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600

    folder = tmp_path / "climber"
    (folder / "__pycache__").mkdir(parents=True)
    (folder / "main.py").write_bytes((EXAMPLE_BOTS / "random_bot.py").read_bytes())
    (folder / "__pycache__" / "main.cpython-311.pyc").write_bytes(b"\0" * 64)
    made = kit(
        "submit", str(folder), "--bot", "climber", "--game", "akropolis", "--create",
        home=home, server=live_server.url,
    )  # fmt: skip
    assert made.returncode == 0, (made.stdout, made.stderr, pipeline.explain()())
    assert "made climber (akropolis), version v1" in made.stdout
    assert "v1 passed validation and is active" in made.stdout
    bot_page = made.stdout.strip().splitlines()[-1].split()[-1]
    assert bot_page.startswith(f"{live_server.url}/my/bots/")

    # Not waited for, and no worker to validate it yet: `test` waits for the new
    # version's validation itself, then tests that version, not the one still active.
    worker.kill()
    second = kit(
        "submit", str(EXAMPLE_BOTS / "lookahead_bot.py"), "--bot", "climber", "--no-wait",
        home=home, server=live_server.url,
    )  # fmt: skip
    assert second.returncode == 0, (second.stdout, second.stderr, pipeline.explain()())
    assert second.stdout.splitlines() == [
        "uploaded climber v2",
        f"validating; follow it at {bot_page}",
    ]

    testing = started_kit(
        "test", "--bot", "climber", "--sprt", "elo0=0,elo1=300", "--max-games", "40",
        home=home, server=live_server.url,
    )  # fmt: skip
    try:
        assert next_line(testing) == "climber v2 is still validating: waiting for it"
        pipeline.start_worker(concurrency=2)
        out, err = testing.communicate(timeout=900)
    finally:
        testing.kill()
    assert testing.returncode == 0, (out, err, pipeline.explain()())
    validated, started, *rest = out.splitlines()
    assert validated == "climber v2 passed validation"
    assert started.startswith("test #") and "v2" in started and "v1" in started
    assert rest[-1].startswith(f"{live_server.url}/bots/")
    assert "games" in rest[-2]


def test_every_refusal_is_one_line_that_says_what_to_do(
    live_server: LiveServer, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    url = live_server.url
    bot = EXAMPLE_BOTS / "random_bot.py"

    def refused(*arguments: str, token: str | None = None, server: str = url) -> str:
        done = kit(*arguments, home=home, server=server, token=token)
        assert done.returncode == 2, (done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        (line,) = done.stderr.splitlines()
        return line

    assert refused("submit", str(bot), "--bot", "b") == (
        f"agon-kit: error: no API token: get yours at {url}/my/token/, then run `agon-kit "
        "login` (or pass --token, or set $AGON_TOKEN)"
    )
    assert refused("submit", str(bot), "--bot", "b", token="not-a-token") == (  # noqa: S106 - a wrong one
        f"agon-kit: error: the server refused the token (401): get yours at {url}/my/token/, "
        "then run `agon-kit login`"
    )
    token = token_of("erin")
    assert refused("submit", str(bot), "--bot", "nobody", token=token) == (
        "agon-kit: error: you have no bot 'nobody': add --create --game GAME to make it"
    )
    assert refused("submit", str(bot), "--bot", "nobody", "--create", token=token) == (
        "agon-kit: error: a new bot needs its game: add --game GAME"
    )
    big = tmp_path / "big.py"
    big.write_bytes(b"#" * (5 * 1024 * 1024 + 1))
    assert "the site takes at most 5 MiB" in refused("submit", str(big), "--bot", "b", token=token)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert refused("submit", str(empty), "--bot", "b", token=token).endswith(
        "has no main.py at its top"
    )
    assert refused("test", "--bot", "nobody", token=token) == (
        "agon-kit: error: you have no bot 'nobody'"
    )
    down = "http://127.0.0.1:9"
    assert refused("submit", str(bot), "--bot", "b", token=token, server=down).startswith(
        f"agon-kit: error: cannot reach {down} ("
    )
