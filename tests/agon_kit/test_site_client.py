"""The kit's client of a site (`agon-kit login`, `submit`, `test`) against a small server
of this test that answers what it is told to, the way no real site would: redirects,
rate limits, control characters, answers of the wrong shape. Whatever it answers, the
command says one line and never shows a traceback; the token goes nowhere but the
server named."""

from __future__ import annotations

import io
import json
import tarfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from agon_kit import cli, remote
from agon_kit.bot_packing import checked
from agon_kit.remote import RemoteError, Site
from agon_kit.remote_bots import my_bot
from sandbox.packages import MAX_FILES, MAX_PACKED_BYTES, PackageError
from tests.agon_kit.support import Outcome


@dataclass
class Canned:
    status: int
    body: bytes = b"{}"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class FakeSite:
    """A server that answers each path with what `answers` holds for it (404 otherwise),
    and keeps the requests it was sent."""

    url: str
    answers: dict[str, Canned] = field(default_factory=dict)
    requests: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)

    def answer(self, path: str, status: int, body: Any = None, **headers: str) -> None:
        data = body if isinstance(body, bytes) else json.dumps(body or {}).encode()
        self.answers[path] = Canned(status, data, headers)


@pytest.fixture
def site() -> Iterator[FakeSite]:
    fake = FakeSite("")

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            fake.requests.append((self.command, self.path, dict(self.headers)))
            canned = fake.answers.get(self.path.partition("?")[0], Canned(404, b"{}"))
            self.send_response(canned.status)
            for name, value in {"Content-Type": "application/json", **canned.headers}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(canned.body)))
            self.end_headers()
            self.wfile.write(canned.body)

        do_GET = do_POST = _answer

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def agon_kit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., Outcome]:
    """`agon-kit ARGUMENTS` in this process, with a config folder of its own."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("AGON_TOKEN", raising=False)
    monkeypatch.delenv("AGON_SERVER", raising=False)

    def run(*argv: str) -> Outcome:
        try:
            code = cli.main(list(argv))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
        captured = capsys.readouterr()
        return Outcome(code, captured.out, captured.err)

    return run


def one_line_refusal(outcome: Outcome) -> str:
    assert outcome.code == 2, outcome
    assert "Traceback" not in outcome.err
    (line,) = outcome.err.splitlines()
    assert line.startswith("agon-kit: error: ")
    return line.removeprefix("agon-kit: error: ")


def bot_file(tmp_path: Path) -> str:
    path = tmp_path / "main.py"
    path.write_text("print('hello')\n")
    return str(path)


def test_a_redirect_is_not_followed_and_names_the_address_to_give(site: FakeSite) -> None:
    site.answer("/api/auth/me/", 301, Location="https://elsewhere.example/api/auth/me/")
    with pytest.raises(RemoteError) as refused:
        Site(site.url, "secret").get("/api/auth/me/")
    assert str(refused.value) == (
        f"{site.url} sent the request on to https://elsewhere.example/api/auth/me/ (301): "
        "if the site moved, give --server https://elsewhere.example"
    )
    assert len(site.requests) == 1  # the token went nowhere else


def test_an_upload_redirected_is_not_sent_again_without_its_file(site: FakeSite) -> None:
    site.answer("/api/bots/", 302, Location="/accounts/login/")
    with pytest.raises(RemoteError, match=r"sent the request on to .*/accounts/login/ \(302\)"):
        Site(site.url, "secret").post_file("/api/bots/", {"name": "b"}, "main.py", b"pass\n")
    assert [method for method, _, _ in site.requests] == ["POST"]


def test_a_busy_site_says_when_to_come_back(site: FakeSite) -> None:
    site.answer("/api/bots/1/tests/", 429, {"detail": "over your daily budget"}, **{
        "Retry-After": "150"
    })  # fmt: skip
    with pytest.raises(RemoteError) as refused:
        Site(site.url, "secret").post("/api/bots/1/tests/", {})
    assert str(refused.value) == (
        "too many requests (429): over your daily budget; try again in 3 minutes"
    )


def test_what_the_server_says_is_shown_without_its_control_characters(site: FakeSite) -> None:
    site.answer("/api/bots/", 400, {"file": ["bad\x1b[2J\x1b]0;owned\x07 bot\nsecond line"]})
    with pytest.raises(RemoteError) as refused:
        Site(site.url, "secret").post_file("/api/bots/", {}, "main.py", b"pass\n")
    said = str(refused.value)
    assert said.startswith("the server refused (400): file: bad")
    assert "\x1b" not in said and "\x07" not in said and "\n" not in said


def test_a_long_refusal_is_cut_to_a_line(site: FakeSite) -> None:
    site.answer("/api/bots/", 400, {"detail": "x" * 5000})
    with pytest.raises(RemoteError) as refused:
        Site(site.url, "secret").post("/api/bots/", {})
    assert len(str(refused.value)) < 400 and str(refused.value).endswith("...")


def test_an_answer_of_another_shape_is_one_line(
    site: FakeSite, agon_kit: Callable[..., Outcome], tmp_path: Path
) -> None:
    site.answer("/api/auth/me/", 200, {"user": "nobody knows"})
    line = one_line_refusal(
        agon_kit("submit", bot_file(tmp_path), "--bot", "b", "--token", "t", "--server", site.url)
    )
    assert line.startswith(f"{site.url} answered what this kit does not expect (")
    assert line.endswith(f"is the kit older than the site? Get the new one at {site.url}/docs/")


def test_a_page_that_is_not_json_is_one_line(
    site: FakeSite, agon_kit: Callable[..., Outcome], tmp_path: Path
) -> None:
    site.answer("/api/auth/me/", 200, b"<html>a proxy's page</html>")
    assert one_line_refusal(
        agon_kit("test", "--bot", "b", "--token", "t", "--server", site.url)
    ) == (f"{site.url} did not answer in JSON: is it an Agon site?")


@pytest.mark.parametrize(
    ("server", "said"),
    [
        ("agon.example", "the server's address must start with http:// or https://"),
        ("ftp://agon.example", "the server's address must start with http:// or https://"),
        ("http://", "the server's address names no host"),
        ("http://127.0.0.1:99999", "the server's address has a port out of range"),
    ],
)
def test_a_malformed_server_address_is_refused_before_any_request(
    server: str, said: str, agon_kit: Callable[..., Outcome], tmp_path: Path
) -> None:
    line = one_line_refusal(
        agon_kit("submit", bot_file(tmp_path), "--bot", "b", "--token", "t", "--server", server)
    )
    assert line.startswith(said)


@pytest.mark.parametrize("token", ["a\nb", "a b", "x" * 300, "tök"])
def test_a_token_that_cannot_be_one_is_refused_before_it_is_sent(
    token: str, site: FakeSite, agon_kit: Callable[..., Outcome], tmp_path: Path
) -> None:
    line = one_line_refusal(
        agon_kit("submit", bot_file(tmp_path), "--bot", "b", "--token", token, "--server", site.url)
    )
    assert line == f"that is not an API token: copy yours from {site.url}/my/token/"
    assert site.requests == []


def test_login_keeps_no_token_the_site_refused(
    site: FakeSite, agon_kit: Callable[..., Outcome], tmp_path: Path
) -> None:
    site.answer("/api/auth/me/", 401, {"detail": "Invalid token."})
    line = one_line_refusal(agon_kit("login", "--token", "wrong", "--server", site.url))
    assert line.startswith("the server refused the token (401)")
    assert not remote.token_file().exists()


def test_a_bot_is_found_by_its_name_before_its_id(site: FakeSite) -> None:
    site.answer("/api/auth/me/", 200, {"id": 1, "username": "ann"})
    bots = [{"id": 7, "name": "first", "game": "attika"}, {"id": 9, "name": "7", "game": "attika"}]
    site.answer("/api/bots/", 200, {"results": bots, "next": None})
    assert my_bot(Site(site.url, "t"), "7") == bots[1]
    assert my_bot(Site(site.url, "t"), "9") == bots[1]
    assert my_bot(Site(site.url, "t"), "first") == bots[0]
    assert my_bot(Site(site.url, "t"), "8") is None


def test_a_file_too_big_for_the_site_is_refused_without_reading_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "big.zip"
    with big.open("wb") as file:
        file.truncate(MAX_PACKED_BYTES + 1)

    def no_reading(path: Path) -> bytes:
        raise AssertionError(f"{path} was read")

    monkeypatch.setattr(Path, "read_bytes", no_reading)
    with pytest.raises(PackageError, match=r"big\.zip is 5\.0 MiB; the site takes at most 5 MiB"):
        checked(big)


def test_a_folder_of_more_files_than_the_site_takes_is_refused_while_packing(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "bot"
    (folder / "data").mkdir(parents=True)
    (folder / "main.py").write_text("pass\n")
    for index in range(MAX_FILES):
        (folder / "data" / f"{index}.txt").write_text("")
    with pytest.raises(PackageError, match=f"more than {MAX_FILES} files"):
        checked(folder)


def test_a_folder_is_packed_without_caches_links_or_version_control(tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    for name in ("main.py", "lib/util.py", ".git/HEAD", "lib/__pycache__/util.pyc", "x.pyc"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("pass\n")
    (folder / "outside.py").symlink_to(tmp_path / "elsewhere.py")
    filename, data = checked(folder)
    assert filename == "bot.tar.gz"
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        assert sorted(archive.getnames()) == ["lib/util.py", "main.py"]


def a_bot_with_versions(site: FakeSite, *versions: dict[str, Any]) -> None:
    site.answer("/api/auth/me/", 200, {"id": 1, "username": "ann"})
    bot = {"id": 3, "name": "first", "game": "attika", "active_version": 1}
    site.answer("/api/bots/", 200, {"results": [bot], "next": None})
    site.answer("/api/bots/3/", 200, {**bot, "versions": list(versions)})


def test_a_rejected_newest_version_is_not_tested_in_its_place(
    site: FakeSite, agon_kit: Callable[..., Outcome]
) -> None:
    a_bot_with_versions(
        site,
        {"number": 1, "status": "active", "reason": None},
        {"number": 2, "status": "rejected", "reason": "it crashed\x1b[31m at move 1"},
    )
    assert one_line_refusal(
        agon_kit("test", "--bot", "first", "--token", "t", "--server", site.url)
    ) == ("first v2, your newest version, was rejected (it crashed at move 1): give --version "
          "to test an earlier one")  # fmt: skip
    assert not [path for method, path, _ in site.requests if method == "POST"]


def test_a_newest_version_still_validating_is_not_left_behind_by_no_wait(
    site: FakeSite, agon_kit: Callable[..., Outcome]
) -> None:
    a_bot_with_versions(
        site,
        {"number": 1, "status": "active", "reason": None},
        {"number": 2, "status": "validating", "reason": None},
    )
    assert one_line_refusal(
        agon_kit("test", "--bot", "first", "--no-wait", "--token", "t", "--server", site.url)
    ) == ("first v2 is still validating: leave out --no-wait to wait for it, or give "
          "--version 1")  # fmt: skip
