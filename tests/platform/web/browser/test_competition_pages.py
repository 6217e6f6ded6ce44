"""Competition pages in Chromium, on a desktop and on a phone: the list by phase, an open
competition's countdown, rules and live leaderboard, a final being played (its table
following the games), the archive once it is over, and a bot's history; hostile names
shown as text, no page wider than the phone."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from agon.bots.models import Bot
from agon.competitions.models import Competition
from tests.platform.competitions.support import (
    at,
    climb,
    enter,
    finished_season,
    its_ladder,
    season,
    staff_user,
)
from tests.platform.conftest import MakeBot
from tests.platform.web.browser.checks import accessibility_problems, horizontal_overflow
from tests.platform.web.browser.conftest import DESKTOP, PHONE, Site

HOSTILE = "<img src=x onerror=alert(1)>"
LONG = "Themistokles the Unbeatable, Archon of Athens"


@pytest.fixture
def bots(make_bot: MakeBot, alice: User, bob: User, carol: User) -> list[Bot]:
    return [make_bot(alice, HOSTILE), make_bot(bob, LONG), make_bot(carol, "cat")]


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_competition_pages_in_each_phase(site: Site, bots: list[Bot], viewport: str) -> None:
    staff = staff_user()
    past = finished_season(staff, [bots[1], bots[0], bots[2]], name=f"Summer of {LONG}")
    final = season(staff, name="Autumn final", final_size=3)
    enter(final, bots)
    at(final.opens)
    climb(its_ladder(final), [bots[2], bots[1], bots[0]], games=1)
    at(final.final_starts)
    final.refresh_from_db()
    assert final.phase == Competition.Phase.FINAL
    running = season(staff, name="Winter season", rules="One bot per author.\nBe kind.")
    enter(running, bots)
    at(running.opens)
    climb(its_ladder(running), bots, games=1)
    season(staff, name="Spring season")  # upcoming

    page = site.new_page(PHONE if viewport == "phone" else DESKTOP)
    shown = {
        "list": "/competitions/",
        "open": f"/competitions/{running.id}/",
        "final": f"/competitions/{final.id}/",
        "archive": f"/competitions/{past.id}/",
        "bot": f"/bots/{bots[0].id}/",
    }
    for name, path in shown.items():
        page.goto(site.url + path)
        problems = accessibility_problems(page)
        assert not problems, f"{name}: " + "; ".join(problems)
        assert horizontal_overflow(page) <= 0, f"the {name} page is wider than the {viewport}"
        site.screenshot(f"competitions/{name}-{viewport}", page)
        assert page.locator("img[src=x]").count() == 0  # the hostile name is text
        if name == "open":
            expect(page.locator("time[data-countdown]")).to_contain_text("in ")
            expect(page.locator(".rule-list")).to_contain_text("Sonneborn-Berger")
            expect(page.locator(".competition-standings")).to_contain_text("cat")
        if name == "final":
            expect(page.locator("#tournament-live")).to_be_visible()
        if name == "archive":
            expect(page.get_by_role("heading", name="Archived games of the final")).to_be_visible()
        if name == "bot":
            expect(page.locator(".bot-competitions")).to_contain_text("Summer of")
