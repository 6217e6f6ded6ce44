"""The kit's commands that talk to a site, run as an author runs them (`python -m
agon.cli.kit`, in a process of its own) against a real server and a real worker:
`login` keeps the token, `submit` uploads a folder and follows its validation, `test`
starts a version test and follows it to its verdict; and every way they fail is one
clear line, never a traceback."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from pytest_django.live_server_helper import LiveServer

from tests.platform.pipeline.conftest import Pipeline
from tests.platform.pipeline.support import EXAMPLE_BOTS, REPO_DIR, only_ladder, signed_in_client

pytestmark = pytest.mark.django_db(transaction=True)


def kit(
    *arguments: str, home: Path, server: str, stdin: str = "", token: str | None = None
) -> subprocess.CompletedProcess[str]:
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
    return subprocess.run(  # noqa: S603 - our own command
        [sys.executable, "-m", "agon.cli.kit", *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        timeout=900,
        check=False,
    )


def token_of(username: str) -> str:
    client = signed_in_client(username)
    header: str = client._credentials["HTTP_AUTHORIZATION"]  # type: ignore[attr-defined]
    return header.removeprefix("Token ")


def test_an_author_logs_in_submits_a_folder_and_tests_a_new_version(
    pipeline: Pipeline, live_server: LiveServer, tmp_path: Path
) -> None:
    only_ladder("akropolis", 2)
    token = token_of("dana")
    pipeline.start_worker(concurrency=2)
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
        "submit", str(folder), "--bot", "climber", "--game", "akropolis",
        home=home, server=live_server.url,
    )  # fmt: skip
    assert made.returncode == 0, (made.stdout, made.stderr, pipeline.explain()())
    assert "made climber (akropolis), version v1" in made.stdout
    assert "v1 passed validation and is active" in made.stdout

    second = kit(
        "submit", str(EXAMPLE_BOTS / "lookahead_bot.py"), "--bot", "climber",
        home=home, server=live_server.url,
    )  # fmt: skip
    assert second.returncode == 0, (second.stdout, second.stderr, pipeline.explain()())
    assert "uploaded climber v2" in second.stdout

    tested = kit(
        "test", "--bot", "climber", "--sprt", "elo0=0,elo1=300", "--max-games", "40",
        home=home, server=live_server.url,
    )  # fmt: skip
    assert tested.returncode == 0, (tested.stdout, tested.stderr, pipeline.explain()())
    first_line, *rest = tested.stdout.splitlines()
    assert first_line.startswith("test #") and "v2" in first_line and "v1" in first_line
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
        "agon-kit: error: you have no bot 'nobody': give --game to make it"
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
