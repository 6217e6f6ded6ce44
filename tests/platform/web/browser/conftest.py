"""Browser tests: Debian's Chromium driven by Playwright against a live server.

One browser per test process; a fresh context (cookies, storage) per test. Every page
a test opens is watched: a console error, a failed request or an uncaught exception
fails the test. Screenshots go to var/screenshots/ at the top of the checkout (ignored
by git), for people to look at: the top of each page, a window's height, unless
AGON_TEST_FULL_SCREENSHOTS=1 asks for whole pages.

Playwright's synchronous API runs an event loop in the test's thread; Django would then
refuse the test's own ORM calls as "async unsafe", so that check is off in these tests.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Request,
    sync_playwright,
)
from pytest_django.live_server_helper import LiveServer

from agon.matches import services
from tests.platform.conftest import PASSWORD
from tests.platform.web.browser.checks import accessibility_problems, horizontal_overflow
from tests.required import missing

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REPO_DIR = Path(__file__).resolve().parents[4]
SCREENSHOTS = REPO_DIR / "var" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
FULL_SCREENSHOTS = os.environ.get("AGON_TEST_FULL_SCREENSHOTS", "") not in ("", "0")
"""Whole pages in the screenshots the tests ask for whole. A long page (the docs, the
rules) took Chromium 1-6 s whole on a loaded machine, a window 0.05-0.2 s: whole pages
cost about 30 s of the browser tests' 500 s, and screenshots check nothing; people
look at them."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here is marked `browser` (`pytest -m "not browser"` leaves them out)."""
    for item in items:
        if "/web/browser/" in str(item.path):
            item.add_marker(pytest.mark.browser)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives Chromium against a live server")


def chromium_executable() -> str:
    """Debian's Chromium; the test is skipped without it (failed where required)."""
    if not Path(CHROMIUM).exists():
        missing("chromium", f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    return CHROMIUM


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    executable = chromium_executable()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def no_broker(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Matches are not sent to a broker: the tests play the ones they need themselves."""
    sent: list[int] = []
    monkeypatch.setattr(services, "_enqueue", sent.append)
    return sent


@dataclass
class Problems:
    """What went wrong in the pages of a test: console errors, failed requests."""

    found: list[str] = field(default_factory=list)

    def watch(self, page: Page) -> None:
        def console(message: ConsoleMessage) -> None:
            if message.type in ("error", "warning"):
                self.found.append(f"console {message.type}: {message.text} ({page.url})")

        page.on("console", console)
        page.on("pageerror", lambda error: self.found.append(f"page error: {error} ({page.url})"))

        def failed(request: Request) -> None:
            # A request cut short because the page moved on (a link followed while the
            # viewer was still fetching a log) is no failure the reader would see.
            if request.failure != "net::ERR_ABORTED":
                self.found.append(f"request failed: {request.url} ({request.failure})")

        page.on("requestfailed", failed)


@dataclass
class Site:
    """The live server, seen through one browser context."""

    url: str
    context: BrowserContext
    page: Page
    problems: Problems

    def open(self, path: str) -> Page:
        self.page.goto(self.url + path)
        return self.page

    def new_page(self, viewport: dict[str, int]) -> Page:
        page = self.context.new_page()
        page.set_viewport_size(viewport)  # type: ignore[arg-type]
        self.problems.watch(page)
        return page

    def screenshot(self, name: str, page: Page | None = None, *, full_page: bool = True) -> Path:
        """The page (the whole of it if `full_page` and FULL_SCREENSHOTS, else its top)
        as `name`.png, where `name` may name folders: `first-hour/attika/01-home`."""
        path = SCREENSHOTS / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        (page or self.page).screenshot(path=str(path), full_page=full_page and FULL_SCREENSHOTS)
        return path


@pytest.fixture
def site(browser: Browser, live_server: LiveServer) -> Iterator[Site]:
    context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    context.set_default_timeout(15_000)
    problems = Problems()
    page = context.new_page()
    problems.watch(page)
    try:
        yield Site(live_server.url, context, page, problems)
    finally:
        context.close()
    assert not problems.found, "\n".join(problems.found)


def signed_in_page(site: Site, viewport: str, username: str = "alice") -> Page:
    """A new page of `viewport` ("phone", else a laptop's), signed in as `username`
    through the sign-in form (which lands on the user's bots)."""
    page = site.new_page(PHONE if viewport == "phone" else LAPTOP)
    page.goto(f"{site.url}/signin/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/my/bots/")
    return page


def looked_at(site: Site, page: Page, name: str, viewport: str) -> None:
    """The page checked as a reader would meet it (accessible, no wider than the
    viewport) and kept as the screenshot `name`-`viewport`; `name` may name folders."""
    problems = accessibility_problems(page)
    assert not problems, "; ".join(problems)
    assert horizontal_overflow(page) <= 0, f"{name} is wider than the {viewport}"
    site.screenshot(f"{name}-{viewport}", page)
