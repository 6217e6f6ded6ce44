"""A newcomer's first visit: sign up, upload a bot, see it validated by a match that
really runs in the sandbox, open that match and step through its replay, which must
show the engine's position at every step checked; read the bot's own log."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from agon.bots.models import BotVersion
from agon.ladders.models import Ladder
from agon.matches.models import Match
from agon.matches.services import match_execute
from tests.platform.conftest import PASSWORD
from tests.platform.web.browser.checks import akropolis_cities, shown_scores
from tests.platform.web.browser.conftest import REPO_DIR, Site
from tests.platform.web.browser.support import akropolis_at, stored_replay

EXAMPLE_BOT = REPO_DIR / "examples" / "bots" / "random_bot.py"


def test_sign_up_upload_see_it_validated_and_replay_its_match(
    site: Site, ladders: list[Ladder], tmp_path: Path
) -> None:
    page = site.open("/")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill("newcomer")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    site.screenshot("signup")
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url("**/my/bots/")
    expect(page.get_by_role("status")).to_contain_text("Welcome, newcomer")

    page.get_by_label("Name").fill("first-bot")
    page.get_by_label("Game").select_option("akropolis")
    page.get_by_label("Bot file").set_input_files(EXAMPLE_BOT)
    page.get_by_role("button", name="Upload").click()
    page.wait_for_url("**/my/bots/*/")
    expect(page.locator(".versions .badge-validating")).to_be_visible()
    site.screenshot("my-bot-validating")

    # The validation match is played here, synchronously, through the real service:
    # the uploaded file runs in a bubblewrap box against the builtin random bot.
    version = BotVersion.objects.get(bot__name="first-bot")
    match = Match.objects.get(kind=Match.Kind.VALIDATION, seats__version=version)
    assert match_execute(match_id=match.id)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.error

    # The page asks every two seconds and reloads once the version is decided.
    expect(page.locator(".versions .badge-active")).to_be_visible(timeout=10_000)
    expect(page.locator(".versions")).to_contain_text("passed its validation match")
    site.screenshot("my-bot-active")

    page.get_by_role("link", name=f"#{match.id}", exact=True).click()
    page.wait_for_url(f"**/matches/{match.id}/")
    replay = stored_replay(match)
    last = len(replay.actions)
    expect(page.locator("#viewer-status")).to_have_text(f"Finished: {last} moves.")
    expect(page.locator("#viewer-position")).to_have_text(f"0 / {last}")

    def shows_step(step: int) -> None:
        expect(page.locator("#viewer-position")).to_have_text(f"{step} / {last}")
        cities, scores = akropolis_at(replay, step)
        assert akropolis_cities(page) == cities, f"step {step}"
        assert shown_scores(page) == scores, f"step {step}"

    shows_step(0)
    page.locator("#viewer-title").click()
    for step in range(1, 5):
        page.keyboard.press("ArrowRight")
        shows_step(step)
    page.keyboard.press("End")
    shows_step(last)
    page.locator("#viewer-scrub").fill(str(last // 2))
    shows_step(last // 2)
    page.get_by_role("button", name="Step back").click()
    shows_step(last // 2 - 1)
    expect(page.locator("#viewer-moves li[aria-current=step]")).to_contain_text("took tile")
    site.screenshot("match-validation")

    seat = next(s for s in match.seats.all() if s.version_id == version.id)
    page.get_by_role("link", name=f"Your log of seat {seat.seat}").click()
    expect(page.locator("pre.log")).to_contain_text("playing akropolis as seat")
    site.screenshot("seat-log")
