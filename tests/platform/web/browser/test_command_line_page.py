"""The command-line page (docs/command-line.md) in Chromium, on a desktop and on a phone:
reached from the bot author's page, its contents lead to its sections, its long commands
scroll inside their blocks instead of widening the page, and it passes the accessibility
basics. Screenshots go to var/screenshots/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.platform.web.browser.checks import accessibility_problems, horizontal_overflow
from tests.platform.web.browser.conftest import PHONE, Site

pytestmark = pytest.mark.django_db(transaction=True)

WIDE_DESKTOP = {"width": 1366, "height": 900}


def test_the_command_line_page_reads_well_on_a_desktop_and_a_phone(site: Site) -> None:
    site.page.set_viewport_size(WIDE_DESKTOP)  # type: ignore[arg-type]
    page = site.open("/docs/")
    page.get_by_role("link", name="the command line").first.click()
    expect(page.locator("h1")).to_have_text("The bot kit on the command line")
    contents = page.get_by_role("navigation", name="On this page")
    contents.get_by_role("link", name="Send it to the site: login, submit, test").click()
    assert page.url.endswith("#send-it-to-the-site-login-submit-test")
    expect(page.get_by_role("link", name="your token page").first).to_have_attribute(
        "href", "/my/token/"
    )
    assert accessibility_problems(page) == []
    assert horizontal_overflow(page) <= 0
    site.screenshot("command-line-desktop", page)

    phone = site.new_page(PHONE)
    phone.goto(site.url + "/docs/command-line/")
    expect(phone.locator("h1")).to_have_text("The bot kit on the command line")
    assert accessibility_problems(phone) == []
    assert horizontal_overflow(phone) <= 0, "the command-line page is wider than a phone"
    site.screenshot("command-line-phone", phone)
