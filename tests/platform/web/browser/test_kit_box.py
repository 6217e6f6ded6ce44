"""The guide's "Play on your machine" box: the exact `pip install URL` of the bot kit (its
sdist, which builds the compiled cores where it can),
legible and inside the page on a desktop and on a phone (screenshots kit-box*.png)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from agon.kit_wheel import kit_sdist
from tests.platform.web.browser.checks import horizontal_overflow
from tests.platform.web.browser.conftest import PHONE, SCREENSHOTS, Site


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_guide_shows_how_to_install_the_kit(site: Site, viewport: str) -> None:
    page = site.new_page(PHONE) if viewport == "phone" else site.page
    page.goto(f"{site.url}/docs/")
    box = page.locator(".doc-aside .card")
    command = f"pip install {site.url}/docs/kit/{kit_sdist().filename}"
    expect(box.locator("pre.kit-command").first).to_have_text(command)
    if viewport == "phone":
        assert horizontal_overflow(page) <= 0, "the guide is wider than a phone"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    suffix = "-phone" if viewport == "phone" else ""
    box.screenshot(path=str(SCREENSHOTS / f"kit-box{suffix}.png"))
    response = page.request.get(f"{site.url}/docs/kit/{kit_sdist().filename}")
    assert response.ok and response.body() == kit_sdist().content
