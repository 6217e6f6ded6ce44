"""`agon view`'s page in Chromium with no network at all: it draws the board, steps
through the moves, asks for nothing but itself, and a hostile bot name stays text."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request, expect

from agon.cli import main
from tests.platform.web.browser.conftest import (
    DESKTOP,
    FULL_SCREENSHOTS,
    PHONE,
    SCREENSHOTS,
    Problems,
)

HOSTILE_NAME = "</script><script>window.pwned = 1</script><img src=x onerror=alert(1)>"


@pytest.fixture
def offline(browser: Browser) -> Iterator[BrowserContext]:
    """A context without a network (its pages fail every request but their own file)."""
    context = browser.new_context(viewport=DESKTOP, offline=True)  # type: ignore[arg-type]
    context.set_default_timeout(15_000)
    try:
        yield context
    finally:
        context.close()


def write_page(tmp_path: Path, game: str, seed: int, bots: list[str]) -> Path:
    replay = tmp_path / f"{game}.json"
    argv = ["play", "--game", game, "--seed", str(seed), "--sandbox", "none"]
    assert main([*argv, "--replay", str(replay), *bots]) == 0
    assert main(["view", str(replay)]) == 0
    return replay.with_suffix(".html")


def open_page(context: BrowserContext, path: Path) -> tuple[Page, list[str], Problems]:
    page = context.new_page()
    problems = Problems()
    problems.watch(page)
    requests: list[str] = []

    def record(request: Request) -> None:
        requests.append(request.url)

    page.on("request", record)
    url = path.resolve().as_uri()
    page.route(
        "**/*", lambda route: route.continue_() if route.request.url == url else route.abort()
    )
    page.goto(url)
    return page, requests, problems


@pytest.mark.parametrize("game", ["akropolis", "architekton", "attika", "megalopolis"])
def test_the_page_plays_the_replay_with_no_network(
    offline: BrowserContext, tmp_path: Path, game: str
) -> None:
    path = write_page(tmp_path, game, 4, ["builtin:greedy", "builtin:random"])
    page, requests, problems = open_page(offline, path)
    position = page.locator("#viewer-position")
    expect(page.locator("#viewer-status")).to_contain_text("Finished:")
    total = int(position.inner_text().split("/")[1])
    assert total > 10
    expect(page.locator("#viewer-board svg, #viewer-board pre").first).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"1 / {total}")
    expect(page.locator("#viewer-caption")).to_contain_text("Step 1: builtin:")
    page.keyboard.press("End")
    expect(position).to_have_text(f"{total} / {total}")
    page.locator("#viewer-moves button[data-step='3']").click()
    expect(position).to_have_text(f"3 / {total}")
    assert requests == [path.resolve().as_uri()], requests
    assert not problems.found, problems.found
    if game == "akropolis":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        assert moves_scroll_in_their_box(page), "desktop"
        page.screenshot(
            path=str(SCREENSHOTS / "offline-viewer-desktop.png"), full_page=FULL_SCREENSHOTS
        )
        page.set_viewport_size(PHONE)  # type: ignore[arg-type]
        assert moves_scroll_in_their_box(page), "phone"
        page.screenshot(
            path=str(SCREENSHOTS / "offline-viewer-phone.png"), full_page=FULL_SCREENSHOTS
        )


def moves_scroll_in_their_box(page: Page) -> bool:
    """The Moves list scrolls inside its panel: the list is shorter than its content, ends
    inside the panel, and the page is no wider than the window."""
    return bool(
        page.evaluate(
            """() => {
              const list = document.getElementById("viewer-moves");
              const panel = list.closest(".viewer-moves").getBoundingClientRect();
              const box = list.getBoundingClientRect();
              return list.scrollHeight > list.clientHeight
                && box.bottom <= panel.bottom + 0.5 && box.right <= panel.right + 0.5
                && list.clientHeight <= window.innerHeight
                && document.documentElement.scrollWidth <= window.innerWidth;
            }"""
        )
    )


def test_a_hostile_bot_name_is_shown_as_text(offline: BrowserContext, tmp_path: Path) -> None:
    replay = tmp_path / "match.json"
    argv = ["play", "--game", "architekton", "--seed", "1", "--sandbox", "none"]
    assert main([*argv, "--replay", str(replay), "builtin:greedy", "builtin:random"]) == 0
    replay.write_text(replay.read_text().replace('"builtin:random"', json.dumps(HOSTILE_NAME), 1))
    assert main(["view", str(replay)]) == 0
    page, requests, problems = open_page(offline, replay.with_suffix(".html"))
    expect(page.locator("#viewer-status")).to_contain_text("Finished:")
    expect(page.locator(".seats")).to_contain_text(HOSTILE_NAME[:40])
    expect(page.locator(".player[data-seat='1'] .name")).to_contain_text(HOSTILE_NAME[:20])
    assert page.evaluate("window.pwned") is None
    assert requests == [replay.with_suffix(".html").resolve().as_uri()], requests
    assert not problems.found, problems.found
