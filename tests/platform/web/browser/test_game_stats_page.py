"""A game's statistics page in Chromium, on a desktop and on a phone: reached from the
game's page, accessible (labels, names, contrast), no sideways scrolling on a phone,
its charts drawn; screenshots for people to look at."""

from __future__ import annotations

import random

from playwright.sync_api import expect

from agon.ladders.models import Ladder
from tests.platform.game_stats.support import ranked
from tests.platform.web.browser.checks import accessibility_problems, horizontal_overflow
from tests.platform.web.browser.conftest import PHONE, Site

OPENINGS = [
    "tile 1 of the site (free) at (-3, 1)",
    "tile 2 of the site (1 stone) at (-3, 1)",
    "tile 1 of the site (free) at (2, -3)",
    "tile 3 of the site (2 stones) at (1, 2)",
    "tile 1 of the site (free) at (-1, -2)",
]


def history() -> None:
    """Ranked Akropolis matches of 2, 3 and 4 players: the first seat a little ahead,
    some ties, lengths and scores spread out; the 4-player ones not digested yet."""
    draw = random.Random(30)  # made-up figures
    for players, count in ((2, 60), (3, 25), (4, 6)):
        for _ in range(count):
            scores = [draw.randint(40, 140) + (12 if seat == 0 else 0) for seat in range(players)]
            ranks = [1 + sum(other > score for other in scores) for score in scores]
            ranked(
                ranks,
                scores,
                turns=draw.randint(28, 48) if players < 4 else None,
                openings=[draw.choice(OPENINGS) for _ in range(players)],
            )


def test_the_statistics_page_on_a_desktop_and_on_a_phone(site: Site, ladders: list[Ladder]) -> None:
    history()
    site.open("/games/akropolis/")
    site.page.get_by_role("link", name="Statistics").click()
    site.page.wait_for_url("**/games/akropolis/stats/")
    phone = site.new_page(PHONE)

    for page, suffix in ((site.page, ""), (phone, "-phone")):
        if suffix:
            page.goto(site.url + "/games/akropolis/stats/")
        expect(page.get_by_role("heading", name="Akropolis statistics")).to_be_visible()
        expect(page.locator("svg.chart.histogram")).to_have_count(
            5
        )  # lengths and scores; no length for 4
        expect(page.locator("svg.rate-bar").first).to_be_visible()
        expect(page.get_by_text("Not counted yet").first).to_be_visible()
        problems = accessibility_problems(page)
        assert not problems, f"statistics{suffix}: " + "; ".join(problems)
        if suffix:
            assert horizontal_overflow(page) <= 0, "the statistics are wider than a phone"
            for frame in page.locator(".table-wrap").all():
                widths = frame.evaluate("(e) => [e.scrollWidth, e.clientWidth]")
                assert widths[0] <= widths[1], f"a table scrolls sideways: {widths}"
        site.screenshot(f"game-stats/akropolis{suffix}", page)
        page.locator("#players-3").scroll_into_view_if_needed()
        site.screenshot(f"game-stats/akropolis{suffix}-3-players", page, full_page=False)
