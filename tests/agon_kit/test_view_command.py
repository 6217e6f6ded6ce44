"""`agon view` and `agon play --view`: a replay as one HTML file that needs no network
(it is opened in Chromium in tests/platform/web/browser/test_offline_viewer.py)."""

from __future__ import annotations

import json
import re
import webbrowser
from collections.abc import Callable
from pathlib import Path

import pytest

from agon_kit import view
from tests.agon_kit.support import Outcome

HOSTILE_NAME = '</script><script>window.pwned = 1</script><!-- & "quoted"'


@pytest.fixture
def replay_file(agon: Callable[..., Outcome], tmp_path: Path) -> Path:
    path = tmp_path / "match.json"
    outcome = agon(
        "play", "--game", "architekton", "--seed", "5", "--sandbox", "none",
        "--replay", str(path), "builtin:greedy", "builtin:random",
    )  # fmt: skip
    assert outcome.code == 0, outcome.err
    return path


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the commands asked the web browser to open (nothing is opened)."""
    urls: list[str] = []

    def fake_open(url: str) -> bool:
        urls.append(url)
        return True

    monkeypatch.setattr(webbrowser, "open", fake_open)
    return urls


def embedded(page: str, element_id: str) -> object:
    found = re.search(rf'<script type="application/json" id="{element_id}">(.*?)</script>', page)
    assert found, f"no #{element_id} in the page"
    return json.loads(found.group(1))


def test_it_writes_the_page_next_to_the_replay_and_says_where(
    agon: Callable[..., Outcome], replay_file: Path, opened: list[str]
) -> None:
    outcome = agon("view", str(replay_file))
    page_path = replay_file.with_suffix(".html")
    assert outcome.code == 0, outcome.err
    assert outcome.out.strip() == f"replay viewer written to {page_path}"
    assert opened == []
    page = page_path.read_text()
    timeline = embedded(page, "agon-timeline")
    assert isinstance(timeline, dict)
    replay = json.loads(replay_file.read_text())
    assert timeline["total"] == len(replay["actions"]) + 1
    assert timeline["final"] is True
    assert embedded(page, "seat-labels") == ["builtin:greedy", "builtin:random"]
    assert 'data-renderer="architekton"' in page


def test_it_inlines_the_sites_viewer_renderer_and_css_and_links_nothing(
    agon: Callable[..., Outcome], replay_file: Path, tmp_path: Path
) -> None:
    output = tmp_path / "elsewhere.html"
    assert agon("view", str(replay_file), "-o", str(output)).code == 0
    page = output.read_text()
    for name in ("viewer.js", "games/architekton.js", "agon.css"):
        assert (view.STATIC_DIR / name).read_text() in page, f"{name} is not inlined"
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", page)
    assert "default-src 'none'" in page  # and the browser is told to fetch nothing


def test_a_hostile_bot_name_stays_text(
    agon: Callable[..., Outcome], replay_file: Path, tmp_path: Path
) -> None:
    data = json.loads(replay_file.read_text())
    data["bots"][1] = HOSTILE_NAME
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(data))
    assert agon("view", str(hostile)).code == 0
    page = hostile.with_suffix(".html").read_text()
    assert "window.pwned" in page  # the name is there, as data and as text
    assert "<script>window.pwned" not in page
    assert "<!--" not in page
    assert embedded(page, "seat-labels") == ["builtin:greedy", HOSTILE_NAME]
    assert "&lt;/script&gt;&lt;script&gt;window.pwned = 1&lt;/script&gt;" in page


def test_a_name_too_long_is_cut_for_its_label() -> None:
    assert view._label("x" * 500, 0) == "x" * (view.LABEL_CHARS - 1) + "…"
    assert view._label(" \n\t", 3) == "seat 3"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("not json", "cannot read replay"),
        (json.dumps({"format": "something-else"}), "not an Agon replay"),
    ],
)
def test_it_refuses_what_is_not_a_replay(
    agon: Callable[..., Outcome], tmp_path: Path, content: str, reason: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    outcome = agon("view", str(path))
    assert outcome.code == 2
    assert reason in outcome.err
    assert not path.with_suffix(".html").exists()


def test_play_view_writes_the_page_next_to_the_replay_and_opens_it(
    agon: Callable[..., Outcome], tmp_path: Path, opened: list[str]
) -> None:
    replay = tmp_path / "m.json"
    outcome = agon(
        "play", "--game", "architekton", "--seed", "2", "--sandbox", "none",
        "--replay", str(replay), "--view", "builtin:greedy", "builtin:greedy",
    )  # fmt: skip
    assert outcome.code == 0, outcome.err
    page = replay.with_suffix(".html")
    assert f"replay viewer: {page}" in outcome.out
    assert opened == [page.resolve().as_uri()]
    assert outcome.last_json()["replay"] == str(replay)  # still the last line


def test_play_view_without_a_replay_or_a_browser_prints_the_path(
    agon: Callable[..., Outcome], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(webbrowser, "open", lambda url: False)
    outcome = agon(
        "play", "--game", "architekton", "--seed", "2", "--sandbox", "none",
        "--view", "builtin:greedy", "builtin:random",
    )  # fmt: skip
    assert outcome.code == 0, outcome.err
    shown = re.search(r"replay viewer: (\S+\.html)", outcome.out)
    assert shown, outcome.out
    page = Path(shown.group(1))
    try:
        assert "agon-timeline" in page.read_text()
        assert f"open {page.resolve().as_uri()}" in outcome.err
    finally:
        page.unlink()


def test_seats_and_options_read_as_a_person_names_them(
    agon: Callable[..., Outcome], replay_file: Path, tmp_path: Path
) -> None:
    data = json.loads(replay_file.read_text())
    data["bots"] = [
        "file:my_bot.py@sha256:0123456789abcdef",
        "file:my_bot.py@sha256:fedcba9876543210",
    ]
    named = tmp_path / "named.json"
    named.write_text(json.dumps(data))
    assert agon("view", str(named)).code == 0
    page = named.with_suffix(".html").read_text()
    # The file's name, and its short digest where two seats would read alike.
    assert embedded(page, "seat-labels") == ["my_bot.py · 0123456", "my_bot.py · fedcba9"]
    assert 'title="file:my_bot.py@sha256:0123456789abcdef"' in page
    assert "<td><span" in page and ">my_bot.py</span>" in page


def test_options_read_as_a_list() -> None:
    text = view._options_text({"variant": "all_tiles", "fast": True, "players": 3})
    assert text == "fast: yes, players: 3, variant: all_tiles"


def test_a_label_keeps_the_file_name_and_a_lone_file_needs_no_digest() -> None:
    assert view._labels(["file:a.py@sha256:0123456789abcdef", "builtin:random"]) == [
        "a.py",
        "builtin:random",
    ]
