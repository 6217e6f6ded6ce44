"""Tournament pages in Chromium, each format on a desktop and on a phone: the standings,
the cross-table or the bracket (scrolling sideways in its box on a phone, never the page),
hostile names as text, and a running tournament's page following its games live."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from agon.bots.models import Bot
from agon.tournaments.models import Tournament
from agon.tournaments.scheduling import tournament_advance, tournaments_advance
from tests.platform.conftest import MakeBot
from tests.platform.support import finish_match
from tests.platform.tournaments.support import (
    after_entry,
    enter,
    games_in_play,
    lower_seat_wins,
    open_tournament,
    play_out,
)
from tests.platform.web.browser.checks import accessibility_problems, horizontal_overflow
from tests.platform.web.browser.conftest import PHONE, Site

HOSTILE = "<img src=x onerror=alert(1)>"
LONG = "Themistokles the Unbeatable, Archon of Athens"


def bots_of(make_bot: MakeBot, owner: User, count: int) -> list[Bot]:
    names = [HOSTILE, LONG, *(f"bot{i}" for i in range(2, count))]
    return [make_bot(owner, name) for name in names[:count]]


def started(owner: User, bots: list[Bot], **settings: object) -> Tournament:
    tournament = open_tournament(owner, public=owner.is_staff, **settings)
    enter(tournament, bots, owner)
    assert tournaments_advance(now=after_entry(tournament)) == [tournament.id]
    tournament.refresh_from_db()
    return tournament


def play_one_round(tournament: Tournament) -> None:
    for game in games_in_play(tournament):
        assert game.match is not None
        finish_match(game.match, scores=lower_seat_wins(game.match))
    tournament_advance(tournament_id=tournament.id)


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_user("stella", password="x" * 12, is_staff=True)


def look_at(site: Site, page: Page, tournament: Tournament, name: str) -> None:
    page.goto(f"{site.url}/tournaments/{tournament.id}/")
    expect(page.locator("h1")).to_contain_text(tournament.name)
    assert accessibility_problems(page) == []
    main = page.locator("main").inner_text()
    assert HOSTILE in main  # the name as text, not an image
    assert page.locator("main img").count() == 0
    site.screenshot(name, page)


@pytest.mark.parametrize(
    ("format", "entrants", "rounds_played"),
    [
        ("round-robin", 5, None),
        ("swiss", 7, 2),
        ("knockout", 11, 2),
        ("double-elimination", 8, None),
        ("gauntlet", 4, None),
    ],
)
def test_each_formats_page_on_a_desktop_and_a_phone(
    site: Site,
    make_bot: MakeBot,
    staff: User,
    format: str,
    entrants: int,
    rounds_played: int | None,
) -> None:
    tournament = started(
        staff, bots_of(make_bot, staff, entrants), format=format, name=f"The {format} cup"
    )
    if rounds_played is None:
        play_out(tournament)
    else:
        for _ in range(rounds_played):
            play_one_round(tournament)
    look_at(site, site.page, tournament, f"tournament-{format}")
    phone = site.new_page(PHONE)
    look_at(site, phone, tournament, f"tournament-{format}-phone")
    assert horizontal_overflow(phone) <= 0, f"the {format} page is wider than a phone"
    standings = phone.locator("table.standings").locator("..")
    if standings.count():
        sizes = standings.evaluate("(el) => [el.scrollWidth, el.clientWidth]")
        assert sizes[0] <= sizes[1], "the standings fit a phone, tie-breaks under the names"
        if format == "swiss":
            first = phone.locator("table.standings tbody tr").first
            expect(first.locator(".tiebreaks-inline")).to_contain_text("BH-C1")
            expect(first.locator("td.tiebreak").first).to_be_hidden()
    if "elimination" in format or format == "knockout":
        bracket = phone.locator("#bracket-scroll")
        sizes = bracket.evaluate("(el) => [el.scrollWidth, el.clientWidth]")
        assert sizes[0] > sizes[1], "the bracket scrolls sideways in its box"
        tooltip = phone.locator("svg.bracket title", has_text=LONG).first
        assert tooltip.text_content() == f"stella/{LONG} (seed 2)"


def test_the_list_of_tournaments_on_a_desktop_and_a_phone(
    site: Site, make_bot: MakeBot, staff: User, alice: User
) -> None:
    running = started(staff, bots_of(make_bot, staff, 4), format="swiss", name="Spring Swiss")
    in_a_week = timezone.now() + timedelta(days=7)
    open_tournament(
        staff, name="Summer knockout", format="knockout", public=True, entry_closes=in_a_week
    )
    finished = started(staff, [make_bot(staff, "solo"), make_bot(staff, "duo")], name="Old cup")
    play_out(finished)
    open_tournament(alice, name="alice's own practice")
    phone = site.new_page(PHONE)
    for page, suffix in ((site.page, ""), (phone, "-phone")):
        page.goto(f"{site.url}/tournaments/")
        for name in ("Spring Swiss", "Summer knockout", "Old cup"):
            expect(page.get_by_role("link", name=name)).to_be_visible()
        assert "practice" not in page.locator("main").inner_text()  # not ours to see
        assert accessibility_problems(page) == []
        site.screenshot(f"tournaments{suffix}", page)
    assert horizontal_overflow(phone) <= 0
    site.page.get_by_role("link", name="Spring Swiss").click()
    expect(site.page).to_have_url(f"{site.url}/tournaments/{running.id}/")


def test_a_running_tournament_follows_its_games_live(
    site: Site, make_bot: MakeBot, staff: User
) -> None:
    tournament = started(staff, bots_of(make_bot, staff, 4), format="swiss", rounds=2)
    page = site.page
    page.goto(f"{site.url}/tournaments/{tournament.id}/")
    progress = page.locator("#tournament-progress")
    expect(progress).to_contain_text("0 of 8 games decided")
    play_one_round(tournament)
    expect(progress).to_contain_text("4 of 8 games decided", timeout=15_000)
    expect(page.locator("#round-2")).to_be_visible()  # the round being played is shown
    page.get_by_role("navigation", name="Rounds").get_by_role("link", name="Round 1").click()
    expect(page.locator("#round-1")).to_be_visible()  # the reader goes back to round 1
    play_one_round(tournament)
    tournament_advance(tournament_id=tournament.id)
    expect(progress).to_contain_text("finished", timeout=15_000)
    expect(page.locator("#round-1")).to_be_visible()  # still the round the reader chose
    site.screenshot("tournament-live-finished", page)
