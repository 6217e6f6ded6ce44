"""A bot author's first hour, on each game, as they would live it: in Chromium against a
live server, with a real Celery worker that plays every match in bubblewrap boxes.

Sign up from the home page, read the game's rules page, upload the example random bot
through the web form, see it validated on its page (the page's own polling, no reload),
see its first ranked match there, watch that match on a phone, step through it, zoom in
on the board, read the bot's own log beside its turn and on its own page, then challenge
the ladder's other bot from the ladder's page and follow that match live. A screenshot
of every step goes to var/screenshots/first-hour/<game>/, for people to look at.

Nothing here stands in for the platform but matchmaking's tick: the test runs one round
where beat would, so that the two bots of the ladder play exactly one ranked match.
"""

from __future__ import annotations

import shutil

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agon.bots.models import BotVersion
from agon.ladders.services import matchmaking_round
from agon.matches.timeline import match_timeline
from engine.registry import get_game
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.pipeline.conftest import Pipeline, pipeline  # noqa: F401 - a fixture
from tests.platform.pipeline.support import only_ladder, wait_finished
from tests.platform.web.browser.checks import accessibility_problems, horizontal_overflow
from tests.platform.web.browser.conftest import PHONE, REPO_DIR, SCREENSHOTS, Site
from tests.platform.web.browser.support import stored_replay

GAMES = ["akropolis", "attika", "architekton", "megalopolis"]
EXAMPLE_BOT = REPO_DIR / "examples" / "bots" / "random_bot.py"
VERDICT_SECONDS = 120_000
"""How long the page may take to show the verdict (ms): a validation match on a busy
machine."""


@pytest.fixture
def no_broker() -> list[int]:
    """Here the matches do go to the broker (unlike the other browser tests'): the real
    worker plays them."""
    return []


class Walk:
    """The steps of one author's walk, each with a numbered screenshot and the checks
    every page outside the replay viewer gets."""

    def __init__(self, site: Site, game: str) -> None:
        self.site, self.game, self.step = site, game, 0
        shutil.rmtree(SCREENSHOTS / "first-hour" / game, ignore_errors=True)  # older walks'

    def shot(self, name: str, page: Page | None = None, *, full_page: bool = True) -> None:
        self.step += 1
        self.site.screenshot(
            f"first-hour/{self.game}/{self.step:02d}-{name}", page, full_page=full_page
        )

    def legible(self, page: Page, what: str) -> None:
        problems = accessibility_problems(page)
        assert not problems, f"{what}: " + "; ".join(problems)
        if page.viewport_size and page.viewport_size["width"] <= PHONE["width"]:
            assert horizontal_overflow(page) <= 0, f"{what} is wider than a phone"


@pytest.mark.parametrize("game", GAMES)
def test_a_bot_author_s_first_hour(
    game: str,
    site: Site,
    pipeline: Pipeline,  # noqa: F811 - the fixture imported above
    make_bot: MakeBot,
) -> None:
    name = get_game(game).name
    ladder = only_ladder(game, 2)
    sparring = make_bot(User.objects.create_user("sparring"), f"{game}-sparring", game)
    pipeline.start_worker()
    walk = Walk(site, game)
    author = f"author-{game}"

    # Sign up from the home page.
    page = site.open("/")
    walk.legible(page, "home")
    walk.shot("home")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill(author)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    walk.shot("sign-up")
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url("**/my/bots/")
    expect(page.get_by_role("status")).to_contain_text(f"Welcome, {author}")
    walk.shot("signed-up")

    # Read the game's rules, reached from the home page.
    site.open("/")
    page.get_by_role("link", name=f"Rules of {name}", exact=True).click()
    page.wait_for_url(f"**/games/{game}/rules/")
    expect(page.get_by_role("heading", level=1)).to_contain_text(name)
    walk.legible(page, "rules")
    walk.shot("rules", full_page=False)

    # Upload the example bot through the form.
    page.get_by_role("link", name="My bots").click()
    page.get_by_label("Name").fill("first-bot")
    page.get_by_label("Game").select_option(game)
    page.get_by_label("Bot file").set_input_files(EXAMPLE_BOT)
    walk.shot("upload")
    page.get_by_role("button", name="Upload").click()
    page.wait_for_url("**/my/bots/*/")
    expect(page.get_by_role("status")).to_contain_text("plays its validation match now")
    walk.shot("validating")

    # The real worker plays the validation match; the page polls and shows the verdict.
    expect(page.locator(".versions .badge-active")).to_be_visible(timeout=VERDICT_SECONDS)
    expect(page.locator(".versions")).to_contain_text("passed its validation match")
    walk.legible(page, "my bot, validated")
    walk.shot("validated")
    version = BotVersion.objects.get(bot__owner__username=author, status="active")

    # Its first ranked match, made by matchmaking's round, played by the worker.
    (ranked,) = matchmaking_round()
    assert ranked.ladder_id == ladder.id
    assert {seat.version.bot_id for seat in ranked.seats.all() if seat.version} == {
        version.bot_id,
        sparring.id,
    }
    wait_finished(ranked, pipeline.explain())
    page.reload()  # what the author does to see what happened meanwhile
    row = page.locator("tr", has=page.get_by_role("link", name=f"#{ranked.id}", exact=True))
    expect(row).to_contain_text("ranked")
    expect(row.locator(".badge-finished")).to_be_visible()
    walk.shot("first-ranked-match")

    # Watch it on a phone: step through the replay.
    phone = site.new_page(PHONE)
    phone.goto(f"{site.url}/my/bots/{version.bot_id}/")
    phone.get_by_role("link", name=f"#{ranked.id}", exact=True).click()
    phone.wait_for_url(f"**/matches/{ranked.id}/")
    ranked.refresh_from_db()
    moves = len(stored_replay(ranked).actions)
    expect(phone.locator("#viewer-status")).to_have_text(f"Finished: {moves} moves.")
    walk.shot("match-phone", phone)
    phone.get_by_role("button", name="Step forward").click()
    phone.get_by_role("button", name="Step forward").click()
    expect(phone.locator("#viewer-position")).to_have_text(f"2 / {moves}")
    walk.shot("match-phone-step-2", phone, full_page=False)
    phone.locator("#viewer").scroll_into_view_if_needed()
    walk.shot("match-phone-viewer", phone, full_page=False)

    # Zoom in on the board, then read the bot's own log beside its first turn.
    board = phone.locator(".board-svg.zoomable").first
    zoom_before = float(board.get_attribute("data-zoom") or "1")
    phone.get_by_role("button", name="Zoom in").click()
    expect(phone.locator("#viewer-status")).to_contain_text("Zoom: ")
    assert float(board.get_attribute("data-zoom") or "1") > zoom_before
    board.scroll_into_view_if_needed()
    walk.shot("match-phone-zoomed", phone, full_page=False)
    seat = next(s for s in ranked.seats.all() if s.version_id == version.id)
    steps = match_timeline(ranked)["steps"]
    assert isinstance(steps, list)
    first_turn = next(index for index, step in enumerate(steps) if step["seat"] == seat.seat)
    phone.goto(f"{site.url}/matches/{ranked.id}/?step={first_turn}")
    panel = phone.locator("#viewer-log")
    expect(panel.locator("h3")).to_have_text(
        f"Your bot's log, seat {seat.seat}, its turn 0 (step {first_turn})"
    )
    expect(panel.locator("pre")).to_contain_text(f"playing {game} as seat {seat.seat}")
    panel.scroll_into_view_if_needed()
    walk.shot("own-log-beside-its-turn-phone", phone, full_page=False)

    # And the whole log of the match, on its own page.
    phone.get_by_role("link", name=f"Your log of seat {seat.seat}").click()
    expect(phone.locator("pre.log")).to_contain_text(f"playing {game} as seat {seat.seat}")
    walk.legible(phone, "own log")
    walk.shot("own-log-phone", phone)

    # Challenge the ladder's other bot from the ladder's page and follow the match live.
    page.locator(".ladders-of").get_by_role("link", name=ladder.name).click()
    page.wait_for_url(f"**/ladders/{ladder.id}/")
    expect(page.locator("table.leaderboard")).to_contain_text(f"first-bot by {author}")
    form = page.locator("form.challenge-form")
    form.get_by_label("Opponent").select_option(str(sparring.id))
    walk.legible(page, "ladder with its challenge form")
    walk.shot("challenge")
    form.get_by_role("button", name="Start the match").click()
    page.wait_for_url("**/matches/*/")
    expect(page.get_by_role("status").first).to_contain_text("Your challenge is match #")
    expect(page.locator("#viewer-status")).to_contain_text("Finished", timeout=VERDICT_SECONDS)
    walk.shot("challenge-finished", full_page=False)
