"""A version test in the browser: started from the owner's bot page with the default
hypotheses (explained on the form), followed on its own page while it runs (the way to each
bound) and to its verdict (the question and answer in words, the evidence's chart between
its bounds, W/D/L, Elo and its interval, the games), on a desktop of 1366x900 and on a
phone."""

from __future__ import annotations

from itertools import cycle

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agon.version_testing.models import VersionTest
from agon.version_testing.services import Baseline, version_test_create
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.version_testing.support import (
    bot_with_two_versions,
    finish_for_candidate,
    play_queued,
    queued_games,
)
from tests.platform.web.browser.checks import accessibility_problems, horizontal_overflow
from tests.platform.web.browser.conftest import PHONE, SCREENSHOTS, Site

PAIRS = [("win", "win"), ("win", "draw"), ("loss", "win"), ("draw", "draw"), ("win", "loss")]
"""How the candidate does in each pair, in turn: stronger, not always."""
LAPTOP = {"width": 1366, "height": 900}


def sign_in(site: Site, username: str) -> Page:
    """Sign the site's browser context in: a version test's pages are its owner's."""
    page = site.open("/signin/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/my/bots/")
    return page


def test_start_a_version_test_and_follow_it_to_its_verdict(
    site: Site, make_bot: MakeBot, alice: User
) -> None:
    bot = bot_with_two_versions(make_bot, alice)
    page = sign_in(site, "alice")

    page = site.open(f"/my/bots/{bot.id}/")
    form = page.locator("form", has=page.get_by_role("button", name="Start the test"))
    form.get_by_label("Version under test").select_option("2")
    form.get_by_label("Against").select_option("version:1")
    expect(form.get_by_label("elo1 (H1)")).to_have_value("50.0")
    expect(page.locator("#version-test-help")).to_contain_text(
        "alpha is the chance that it says yes"
    )
    form.get_by_label("Game limit").fill("300")
    site.screenshot("version-test-form")
    form.get_by_role("button", name="Start the test").click()
    page.wait_for_url(f"**/bots/{bot.id}/tests/*/")
    expect(page.get_by_role("status").last).to_contain_text(
        "Running: no pair of games counted yet (at most 300 games)."
    )

    test = VersionTest.objects.get()
    outcomes = cycle(PAIRS)
    laptop = site.new_page(LAPTOP)
    phone = site.new_page(PHONE)
    for _ in range(len(PAIRS)):
        first, second, *_ = queued_games(test)
        pair = next(outcomes)
        finish_for_candidate(first, test, pair[0])
        finish_for_candidate(second, test, pair[1])
        test.refresh_from_db()
    assert test.status == VersionTest.Status.RUNNING
    for shown, suffix in ((laptop, ""), (phone, "-phone")):
        shown.goto(f"{site.url}/bots/{bot.id}/tests/{test.id}/")
        expect(shown.locator(".verdict")).to_contain_text("Is v2 at least 50 Elo stronger than v1?")
        expect(shown.locator(".verdict")).to_contain_text("Running: after 10 games (")
        expect(shown.get_by_label("Towards yes (H1)")).to_be_visible()
        expect(shown.get_by_label("Towards no (H0)")).to_be_visible()
        if suffix:
            assert horizontal_overflow(shown) <= 0, "the running test's page is wider than a phone"
        site.screenshot(f"version-test-running{suffix}", shown, full_page=not suffix)

    while test.status == VersionTest.Status.RUNNING:
        first, second, *_ = queued_games(test)
        pair = next(outcomes)
        finish_for_candidate(first, test, pair[0])
        finish_for_candidate(second, test, pair[1])
        test.refresh_from_db()
    assert test.verdict == VersionTest.Verdict.H1

    for shown, suffix in ((laptop, ""), (phone, "-phone")):
        shown.goto(f"{site.url}/bots/{bot.id}/tests/{test.id}/")
        expect(shown.locator(".verdict")).to_contain_text(
            f"Yes: after {test.games_counted} games ({test.wins} won, {test.draws} drawn, "
            f"{test.losses} lost), the test accepted H1 (v2 is at least 50 Elo stronger than "
            "v1) with 5% error rates."
        )
        expect(shown.locator(".verdict")).to_contain_text("Estimated +")
        expect(shown.locator(".stats")).to_contain_text(
            f"{test.wins} / {test.draws} / {test.losses}"
        )
        expect(shown.locator("svg.llr-chart")).to_be_visible()
        assert shown.locator("svg.llr-chart .bound").count() == 2
        problems = accessibility_problems(shown)
        assert not problems, "; ".join(problems)
        if suffix:
            assert horizontal_overflow(shown) <= 0, "the test's page is wider than a phone"
        site.screenshot(f"version-test{suffix}", shown)
        if suffix:  # the verdict and the figures, as a phone first shows them
            site.screenshot("version-test-phone-top", shown, full_page=False)

    page.goto(f"{site.url}/bots/{bot.id}/tests/{test.id}/")
    page.get_by_role("link", name=f"#{first_match_id(test)}", exact=True).click()
    page.wait_for_url(f"**/matches/{first_match_id(test)}/")
    expect(page.locator("#viewer-status")).to_contain_text("Finished")

    page = site.open(f"/my/bots/{bot.id}/")
    expect(page.locator("table.version-tests")).to_contain_text("H1")
    site.screenshot("version-test-listed")
    phone.goto(f"{site.url}/my/bots/{bot.id}/")
    assert horizontal_overflow(phone) <= 0, "the bot's page is wider than a phone"
    site.screenshot("version-test-listed-phone", phone)
    # The long page of matches below makes the whole page hard to look at on a phone.
    tests_part = phone.locator("section", has=phone.locator("#tests-title")).locator("..")
    tests_part.screenshot(path=str(SCREENSHOTS / "version-test-listed-phone-part.png"))


def first_match_id(test: VersionTest) -> int:
    """The match of the test's first game (the page lists the games in order)."""
    return test.games.order_by("pair", "leg", "side").values_list("match_id", flat=True)[0]


def test_a_no_and_an_undecided_test_say_so_on_a_phone(
    site: Site, make_bot: MakeBot, alice: User
) -> None:
    bot = bot_with_two_versions(make_bot, alice)
    worse = version_test_create(user=alice, bot=bot, candidate=2, baseline=Baseline(version=1))
    while worse.status == VersionTest.Status.RUNNING:
        play_queued(worse, "loss")
        worse.refresh_from_db()
    undecided = version_test_create(
        user=alice, bot=bot, candidate=2, baseline=Baseline(version=1), max_games=8
    )
    for outcome in ("win", "draw"):
        play_queued(undecided, outcome)
    undecided.refresh_from_db()
    assert (worse.verdict, undecided.verdict) == ("H0", "inconclusive")

    sign_in(site, "alice")
    phone = site.new_page(PHONE)
    for test, said, name in (
        (worse, "No: after", "version-test-no"),
        (undecided, "Undecided: the test reached its limit of 8 games", "version-test-undecided"),
    ):
        phone.goto(f"{site.url}/bots/{bot.id}/tests/{test.id}/")
        expect(phone.locator(".verdict")).to_contain_text(said)
        expect(phone.locator(".verdict")).to_contain_text("95%:")
        assert horizontal_overflow(phone) <= 0, "the test's page is wider than a phone"
        problems = accessibility_problems(phone)
        assert not problems, "; ".join(problems)
        site.screenshot(f"{name}-phone-top", phone, full_page=False)
    expect(phone.get_by_label("Towards yes (H1)")).to_be_visible()
