"""The match's story under the board in Chromium: for each game a finished match, analysed
by the real service, shows a curve per seat and its biggest drops; a click on a drop (on
the chart or in the list) shows that step in the viewer. Its owner sees the bot's own
evaluations as dots, a stranger none. Desktop and phone, accessible, no sideways
scrolling; screenshots for people to look at (var/screenshots/story/)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from agon.analysis import services
from agon.analysis.models import MatchAnalysis
from agon.analysis.selectors import analysis_document
from agon.bots.models import BotVersion
from agon.ladders.models import Ladder
from agon.matches.models import Match
from engine.search.analysis import LEVELS
from tests.platform.conftest import MakeBot
from tests.platform.support import ranked_match
from tests.platform.web.browser.conftest import (
    LAPTOP,
    PHONE,
    SCREENSHOTS,
    Site,
    looked_at,
    signed_in_page,
)
from tests.platform.web.support import play_and_finish

GAMES = {"akropolis": 3, "attika": 2, "architekton": 2, "megalopolis": 4}
"""Each game with a player count of its ladders: two, three and four seats are drawn."""


@pytest.fixture(autouse=True)
def analyses_kept(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Analyses asked for are not sent to a broker: the tests make the ones they need."""
    sent: list[int] = []
    monkeypatch.setattr(services, "_send", sent.extend)
    return sent


@pytest.fixture(autouse=True)
def smaller_level(monkeypatch: pytest.MonkeyPatch) -> None:
    small = dataclasses.replace(LEVELS["mcts-1"], iterations=24, candidates=6)
    monkeypatch.setitem(LEVELS, "mcts-1", small)


def analysed_match(
    make_bot: MakeBot, owners: list[User], game: str, players: int, *, logs: Any = None
) -> Match:
    ladder = Ladder.objects.get(game=game, players=players)
    versions = [
        BotVersion.objects.get(
            bot=make_bot(owner, f"{owner.username}-{game}", game), status="active"
        )
        for owner in owners[:players]
    ]
    match = play_and_finish(
        ranked_match(ladder, versions, seed=17),
        bots=["greedy", "random", "greedy", "random"][:players],
        logs=logs,
    )
    MatchAnalysis.objects.create(match=match, requested=timezone.now())
    assert services.analysis_run(match_id=match.id)
    return match


@pytest.fixture
def owners(alice: User, bob: User) -> list[User]:
    extra = [User.objects.create_user(name, password="x" * 12) for name in ("carol", "dave")]
    return [alice, bob, *extra]


def story_drawn(page: Page, seats: int) -> None:
    story = page.locator("#viewer-story")
    expect(story).to_be_visible()
    expect(story.locator("polyline.story-line")).to_have_count(seats)
    expect(page.locator("#viewer-status")).to_contain_text("Finished")


@pytest.mark.parametrize("game", list(GAMES))
def test_each_games_story_is_drawn_on_a_desktop_and_a_phone(
    site: Site, make_bot: MakeBot, owners: list[User], game: str
) -> None:
    players = GAMES[game]
    match = analysed_match(make_bot, owners, game, players)
    for viewport, size in (("desktop", LAPTOP), ("phone", PHONE)):
        page = site.new_page(size)
        page.goto(f"{site.url}/matches/{match.id}/")
        story_drawn(page, players)
        page.locator("#viewer-story").scroll_into_view_if_needed()
        # Legible: the chart is drawn at the width it has, its text at 11-12 px.
        width = page.locator(".story-svg").evaluate("svg => svg.getBoundingClientRect().width")
        assert width <= size["width"]
        looked_at(site, page, f"story/{game}", viewport)
        # The story alone, at the size a reader meets it.
        page.locator("#viewer-story").screenshot(
            path=SCREENSHOTS / "story" / f"{game}-{viewport}-story.png"
        )
        page.close()


def test_a_click_on_a_drop_shows_its_step(
    site: Site, make_bot: MakeBot, owners: list[User]
) -> None:
    match = analysed_match(make_bot, owners, "akropolis", 2)
    drops = services_drops(match)
    assert drops, "the greedy-against-random match has no drop to click"
    page = site.open(f"/matches/{match.id}/")
    story_drawn(page, 2)

    first = drops[0]["step"]
    page.locator(f".story-drop[data-step='{first}']").click()
    expect(page.locator("#viewer-position")).to_have_text(f"{first} / {match_steps(match)}")
    expect(page).to_have_url(f"{site.url}/matches/{match.id}/?step={first}")
    expect(page.locator(".story-now")).to_contain_text(f"Step {first}:")

    last = drops[-1]["step"]
    page.locator(".story-drops button").last.click()
    expect(page.locator("#viewer-position")).to_have_text(f"{last} / {match_steps(match)}")

    # Anywhere on the chart: its left edge is the start.
    box = page.locator(".story-svg").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 41, box["y"] + box["height"] / 2)
    expect(page.locator("#viewer-position")).to_have_text(f"0 / {match_steps(match)}")


def test_the_owner_sees_the_bots_evaluations_and_a_stranger_does_not(
    site: Site, browser: Browser, make_bot: MakeBot, owners: list[User]
) -> None:
    turns = [f"agon-eval 0.{seat}5\n".encode() for seat in range(1, 40)]
    match = analysed_match(make_bot, owners, "architekton", 2, logs={0: turns})

    mine = signed_in_page(site, "desktop")
    mine.goto(f"{site.url}/matches/{match.id}/")
    story_drawn(mine, 2)
    expect(mine.locator("circle.story-own").first).to_be_attached()
    assert mine.locator("circle.story-own").count() > 5
    expect(mine.locator(".story-legend")).to_contain_text("its own evaluations")
    looked_at(site, mine, "story/owner-evaluations", "desktop")
    mine.locator("#viewer-story").screenshot(
        path=SCREENSHOTS / "story" / "owner-evaluations-story.png"
    )

    # A stranger: another browser, signed out.
    stranger = browser.new_context(viewport=LAPTOP)  # type: ignore[arg-type]
    try:
        theirs = stranger.new_page()
        theirs.goto(f"{site.url}/matches/{match.id}/")
        story_drawn(theirs, 2)
        assert theirs.locator("circle.story-own").count() == 0
        assert "agon-eval" not in theirs.content()
        expect(theirs.locator(".story-legend")).not_to_contain_text("its own evaluations")
    finally:
        stranger.close()


def test_a_match_not_analysed_says_why_and_offers_its_owner_the_button(
    site: Site, make_bot: MakeBot, owners: list[User], analyses_kept: list[int]
) -> None:
    match = analysed_match(make_bot, owners, "architekton", 2)
    MatchAnalysis.objects.filter(match=match).delete()
    Match.objects.filter(id=match.id).update(kind=Match.Kind.CHALLENGE)

    page = signed_in_page(site, "phone")
    page.goto(f"{site.url}/matches/{match.id}/")
    expect(page.locator(".story-note")).to_contain_text("Not analysed")
    page.get_by_role("button", name="Analyse this match").click()
    expect(page.locator(".story-note")).to_contain_text("being analysed")
    assert MatchAnalysis.objects.get(match=match).status == MatchAnalysis.Status.QUEUED
    assert analyses_kept == [match.id]


def services_drops(match: Match) -> list[dict[str, Any]]:
    """The drops as the page reads them."""
    return list(analysis_document(match=match, viewer=None)["drops"])


def match_steps(match: Match) -> int:
    return len(MatchAnalysis.objects.get(match=match).values) - 1
