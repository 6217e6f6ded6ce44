"""A rules page in Chromium, on a desktop and on a phone: the contents lead to their
sections, the wide tables and JSON scroll inside the page instead of widening it, and
the page passes the accessibility basics. Screenshots go to var/screenshots/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.platform.web.browser.checks import accessibility_problems, horizontal_overflow
from tests.platform.web.browser.conftest import PHONE, Site

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
