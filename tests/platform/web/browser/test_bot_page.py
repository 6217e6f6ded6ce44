"""A bot's public page with a few opponents met: the head-to-head table and the dated
rating chart, legible on a desktop and on a phone (screenshots bot-head-to-head*.png)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from agon.ladders.models import Ladder
from tests.platform.conftest import MakeBot
from tests.platform.support import play_ranked
from tests.platform.web.browser.checks import accessibility_problems, horizontal_overflow
from tests.platform.web.browser.conftest import PHONE, Site

SCORES = [(60, 40), (50, 50), (30, 45), (70, 20), (55, 54)]


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_bot_page_shows_its_record_against_each_opponent(
    site: Site, ladders: list[Ladder], make_bot: MakeBot, alice: User, bob: User, viewport: str
) -> None:
    ladder = Ladder.objects.get(game="akropolis", players=2)
    athena = make_bot(alice, "athena")
    rivals = [make_bot(bob, name) for name in ("hermes", "a-rather-long-bot-name-of-64", "zeus")]
    for index, (mine, theirs) in enumerate(SCORES * 2):
        play_ranked(ladder, [athena, rivals[index % 3]], [mine, theirs])
    page = site.new_page(PHONE) if viewport == "phone" else site.page
    page.goto(f"{site.url}/bots/{athena.id}/")
    table = page.get_by_role("table", name="athena's record in ranked games against each opponent")
    expect(table.get_by_role("row")).to_have_count(1 + 3)
    expect(table.get_by_role("row", name="hermes")).to_contain_text("by bob")
    expect(page.locator("svg.chart text.tick").last).to_contain_text("rated matches on")
    problems = accessibility_problems(page)
    assert not problems, "; ".join(problems)
    if viewport == "phone":
        assert horizontal_overflow(page) <= 0, "the bot page is wider than a phone"
    site.screenshot("bot-head-to-head" + ("-phone" if viewport == "phone" else ""), page)
