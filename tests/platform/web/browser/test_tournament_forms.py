"""A tournament made and entered from the pages in Chromium: the "New tournament" form
of the list, a refusal said above it, the tournament's page and its entry form, on a
desktop and on a phone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect
from pytest_django import Settings

from agon.ladders.models import Ladder
from agon.tournaments.models import Tournament
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.tournaments.support import enter, open_tournament
from tests.platform.web.browser.checks import accessibility_problems, horizontal_overflow
from tests.platform.web.browser.conftest import PHONE, Site


def sign_in(site: Site, page: Page, next_path: str, *, via: str = "") -> None:
    page.goto(f"{site.url}{via}" if via else f"{site.url}/signin/?next={next_path}")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"**{next_path}")


def test_make_a_tournament_and_enter_a_bot_on_a_desktop_and_a_phone(
    site: Site, ladders: list[Ladder], make_bot: MakeBot, alice: User, settings: Settings
) -> None:
    settings.AGON_PRIVATE_TOURNAMENTS_PER_USER = 1
    ant = make_bot(alice, "ant")
    make_bot(alice, "bee")
    # The desktop's browser is in Tokyo; the form's address, opened signed out, signs in
    # and comes back to the form.
    tokyo = ZoneInfo("Asia/Tokyo")
    cdp = site.context.new_cdp_session(site.page)
    cdp.send("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
    before = timezone.now()
    sign_in(site, site.page, "/tournaments/new/", via="/tournaments/new/")
    expect(site.page.locator("h1")).to_have_text("New tournament")
    phone = site.new_page(PHONE)  # the same browser: signed in too
    for width, page, name in (("desktop", site.page, "spring cup"), ("phone", phone, "dup")):
        form = page.locator("form.tournament-form")
        if width == "desktop":
            # Entry closes at the next quarter hour a few minutes ahead, in Tokyo's time.
            expect(form.get_by_text("Your time (Asia/Tokyo)").first).to_be_visible()
            typed = form.get_by_label("Entry closes").input_value()
            closes = datetime.fromisoformat(typed).replace(tzinfo=tokyo)
            assert before + timedelta(minutes=5) <= closes <= before + timedelta(minutes=20)
        else:
            page.goto(f"{site.url}/tournaments/")
            page.get_by_text("New tournament").click()
        form.get_by_label("Name").fill(name)
        form.get_by_label("Game").select_option(label="Akropolis")
        form.get_by_label("Format").select_option("round-robin")
        form.get_by_label("Most bots").fill("4")
        assert accessibility_problems(page) == []
        assert horizontal_overflow(page) == 0
        site.screenshot(f"tournament-forms/{width}-01-new", page)
        form.get_by_role("button", name="Make the tournament").click()
        if width == "phone":
            # The quota (one private tournament at a time) is said above the form.
            expect(page.get_by_role("alert")).to_contain_text(
                "The tournament was not made: you have 1 private tournaments not finished"
            )
            expect(page.locator("form.tournament-form").get_by_label("Name")).to_have_value("dup")
            site.screenshot(f"tournament-forms/{width}-02-refused", page)
            assert horizontal_overflow(page) == 0
        tournament = Tournament.objects.get()
        if width == "desktop":
            assert tournament.entry_closes == closes
        page.goto(f"{site.url}/tournaments/{tournament.id}/")
        expect(page.locator("h1")).to_contain_text("spring cup")
        if width == "desktop":
            # The page says the entry close as it was typed: in Tokyo's time, zone named,
            # the UTC time kept in its title.
            shown = page.locator("#enter time")
            expect(shown).to_contain_text(f"{closes.day} {closes:%b, %H:%M}")
            expect(shown).to_have_attribute("title", f"{closes.astimezone(UTC):%-d %b, %H:%M} UTC")
            assert "UTC" not in shown.inner_text()

        entry = page.locator("form.entry-form")
        bot = "ant" if width == "desktop" else "bee"
        entry.get_by_label("Bot").select_option(label=bot)
        entry.get_by_role("button", name="Enter the bot").click()
        expect(page.get_by_role("status").first).to_contain_text(f"{bot} is entered.")
        assert accessibility_problems(page) == []
        assert horizontal_overflow(page) == 0
        site.screenshot(f"tournament-forms/{width}-03-entered", page)
    assert sorted(e.bot.name for e in Tournament.objects.get().entries.all()) == ["ant", "bee"]
    assert ant.entries.count() == 1


def test_withdraw_an_entry_and_cancel_the_tournament_on_a_desktop_and_a_phone(
    site: Site, ladders: list[Ladder], make_bot: MakeBot, alice: User
) -> None:
    tournament = open_tournament(alice, name="practice")
    enter(tournament, [make_bot(alice, "ant"), make_bot(alice, "bee")], alice)
    sign_in(site, site.page, f"/tournaments/{tournament.id}/")
    phone = site.new_page(PHONE)
    phone.goto(f"{site.url}/tournaments/{tournament.id}/")
    for width, page in (("desktop", site.page), ("phone", phone)):
        expect(page.get_by_role("button", name="Withdraw ant")).to_be_visible()
        assert accessibility_problems(page) == []
        assert horizontal_overflow(page) == 0
        site.screenshot(f"tournament-forms/{width}-04-withdraw", page)
    site.page.get_by_role("button", name="Withdraw ant").click()
    expect(site.page.get_by_role("status").first).to_contain_text("ant is withdrawn.")
    expect(site.page.get_by_role("button", name="Withdraw ant")).to_have_count(0)
    phone.reload()
    phone.get_by_text("Cancel the tournament…").click()
    confirm = phone.get_by_role("button", name="Yes, cancel the tournament")
    expect(confirm).to_be_visible()
    expect(phone.locator(".confirm-card")).to_contain_text("It will not start")
    assert accessibility_problems(phone) == []
    assert horizontal_overflow(phone) == 0
    site.screenshot("tournament-forms/phone-05-confirm-cancel", phone)
    assert Tournament.objects.get(id=tournament.id).status == Tournament.Status.ENTRY
    confirm.click()
    expect(phone.get_by_role("status").first).to_contain_text("The tournament is cancelled")
    expect(phone.locator("#tournament-live")).to_have_attribute("data-status", "cancelled")
    assert horizontal_overflow(phone) == 0
    site.screenshot("tournament-forms/phone-06-cancelled", phone)
    assert Tournament.objects.get(id=tournament.id).status == Tournament.Status.CANCELLED
    assert [e.bot.name for e in Tournament.objects.get(id=tournament.id).entries.all()] == ["bee"]
