"""The API docs (Swagger UI) work under the site's Content-Security-Policy: the page
draws every endpoint and tries one out, and the browser reports no violation (a
refused script, style or image is a console error: the `site` fixture fails on it)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.platform.web.browser.conftest import Site

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_api_docs_work_under_the_content_security_policy(site: Site) -> None:
    violations: list[str] = []
    site.page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page = site.open("/api/docs/")

    expect(page.locator(".swagger-ui .information-container .title")).to_contain_text("Agon API")
    games = page.locator("#operations-games-games_list")
    expect(games).to_be_visible()
    games.locator(".opblock-summary").click()
    page.get_by_role("button", name="Try it out").click()
    page.get_by_role("button", name="Execute").click()
    expect(games.locator(".live-responses-table tbody .response-col_status").first).to_contain_text(
        "200"
    )
    site.screenshot("api-docs", page)

    assert violations == []
