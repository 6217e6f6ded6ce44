"""A rules page in Chromium, on a desktop and on a phone: the contents lead to their
sections, the wide tables and JSON scroll inside the page instead of widening it, and
the page passes the accessibility basics. Screenshots go to var/screenshots/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.platform.web.browser.checks import accessibility_problems, horizontal_overflow
from tests.platform.web.browser.conftest import PHONE, SCREENSHOTS, Site

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_rules_page_reads_well_on_a_desktop_and_a_phone(site: Site) -> None:
    page = site.open("/games/megalopolis/rules/")
    expect(page.locator("h1")).to_have_text("Megalopolis: the rules")
    page.get_by_role("navigation", name="On this page").get_by_role("link", name="Scoring").click()
    assert page.url.endswith("#scoring")
    expect(page.locator("#scoring")).to_be_in_viewport()
    assert accessibility_problems(page) == []
    assert horizontal_overflow(page) <= 0
    site.screenshot("rules-desktop", page)

    phone = site.new_page(PHONE)
    phone.goto(site.url + "/games/megalopolis/rules/")
    expect(phone.locator("h1")).to_have_text("Megalopolis: the rules")
    assert accessibility_problems(phone) == []
    assert horizontal_overflow(phone) <= 0, "the rules page is wider than a phone"
    site.screenshot("rules-phone", phone)


GAMES = ["akropolis", "attika", "architekton", "megalopolis"]
VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": PHONE}
SMALLEST_TEXT_PX = 7.0
"""The height, in pixels of the window, under which no text of a picture may shrink."""

PICTURES_SCRIPT = """
() => Array.from(document.querySelectorAll("figure.rules-figure svg"), (picture) => {
  const box = picture.getBoundingClientRect();
  const texts = Array.from(picture.querySelectorAll("text"),
                           (text) => text.getBoundingClientRect().height);
  return {name: picture.dataset.picture, left: box.left, right: box.right, width: box.width,
          height: box.height, smallestText: texts.length ? Math.min(...texts) : null};
})
"""


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_pictures_and_component_tables_fit_the_window(
    site: Site, game_id: str, viewport: str
) -> None:
    size = VIEWPORTS[viewport]
    page = site.new_page(size)
    page.goto(f"{site.url}/games/{game_id}/rules/")
    pictures = page.locator("figure.rules-figure svg")
    assert pictures.count() >= 3
    for index in range(pictures.count()):
        pictures.nth(index).scroll_into_view_if_needed()
        expect(pictures.nth(index)).to_be_visible()
    expect(page.locator("table.component-table").first).to_be_visible()
    for picture in page.evaluate(PICTURES_SCRIPT):
        assert picture["left"] >= 0 and picture["right"] <= size["width"], picture
        assert picture["width"] >= min(280, size["width"] - 60), picture
        assert picture["height"] > 60, picture
        if picture["smallestText"] is not None:
            assert picture["smallestText"] >= SMALLEST_TEXT_PX, picture
    assert horizontal_overflow(page) <= 0, f"the {game_id} rules are wider than the window"
    assert accessibility_problems(page) == []
    site.screenshot(f"rules/{game_id}-{viewport}", page)
    for index in range(pictures.count()):  # each picture alone, to look at closely
        figure = page.locator("figure.rules-figure").nth(index)
        path = SCREENSHOTS / "rules" / f"{game_id}-{viewport}-figure-{index + 1}.png"
        figure.screenshot(path=str(path))
