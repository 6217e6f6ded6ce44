"""Every main page, on a desktop and on a phone: accessibility basics (labels, names,
alt text, text contrast), no sideways scrolling on a phone, a screenshot of each; every
documentation page and the home page as a newcomer reads them at both sizes; and the
boards of Attika, Architekton and Megalopolis as the engine has them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db.models import F
from playwright.sync_api import Page, expect

from agon.accounts.names import BOT_NAME_MAX
from agon.ladders.anchors import anchors_ensure
from agon.ladders.models import Ladder, Rating
from agon.matches.models import Match
from agon.web.docs import DOCS
from engine.registry import game_ids, get_game
from engine.replay import replay_states
from tests.platform.conftest import PASSWORD, MakeBot
from tests.platform.support import ranked_match
from tests.platform.web.browser.checks import (
    accessibility_problems,
    horizontal_overflow,
    on_more_than_one_line,
    past_the_right_edge,
    scrolling_sideways,
)
from tests.platform.web.browser.conftest import PHONE, Site
from tests.platform.web.browser.support import stored_replay
from tests.platform.web.support import play_and_finish


def finished(make_bot: MakeBot, owners: list[User], game: str, players: int) -> Match:
    ladder = Ladder.objects.get(game=game, players=players)
    bots = [make_bot(owner, f"{game}-{owner.username}", game) for owner in owners[:players]]
    versions = [bot.versions.get(status="active") for bot in bots]
    return play_and_finish(ranked_match(ladder, versions, seed=8))


@pytest.fixture
def owners(alice: User, bob: User) -> list[User]:
    return [alice, bob, User.objects.create_user("carol", password="x" * 12)]


def pages_of(match: Match) -> dict[str, str]:
    seat = match.seats.select_related("version").first()
    assert seat is not None and seat.version is not None
    ladder = match.ladder
    assert ladder is not None
    return {
        "home": "/",
        "game": f"/games/{match.game}/",
        "dataset": f"/games/{match.game}/dataset/",
        "ladders": "/ladders/",
        "leaderboard": f"/ladders/{ladder.id}/",
        "matches": "/matches/",
        "match": f"/matches/{match.id}/",
        "bot": f"/bots/{seat.version.bot_id}/",
        "guide": "/docs/",
        "signin": "/signin/",
        "my-bots": "/my/bots/",
        "my-bot": f"/my/bots/{seat.version.bot_id}/",
        "my-token": "/my/token/",
    }


def test_the_main_pages_on_a_desktop_and_on_a_phone(
    site: Site, ladders: list[Ladder], make_bot: MakeBot, owners: list[User]
) -> None:
    match = finished(make_bot, owners, "akropolis", 3)
    assert match.ladder is not None
    versions = [seat.version for seat in match.seats.all() if seat.version is not None]
    for seed in range(3):
        play_and_finish(ranked_match(match.ladder, versions, seed=seed))
    # One bot settled (ranked, a narrow interval), one paused for its faults (its owner's
    # page says why and offers to resume it): every state of a rating and a version shown.
    first = match.seats.select_related("version").get(seat=0).version
    last = match.seats.select_related("version").get(seat=2).version
    assert first is not None and last is not None
    Rating.objects.filter(bot_id=last.bot_id).update(
        deviation=52.0, rankable=True, ranking=F("rating") - 1.96 * 52.0
    )
    first.paused_reason = (
        "Paused from matchmaking: it faulted in 3 of its last 12 matches (crash, timeout), "
        "more than 10%."
    )
    first.save(update_fields=["paused_reason"])
    anchors_ensure()  # the reference bots on every ladder, each with its badge
    urls = pages_of(match)
    phone = site.new_page(PHONE)
    for name, path in urls.items():
        if name == "my-bots":
            site.open("/signin/")
            site.page.get_by_label("Username").fill("alice")
            site.page.get_by_label("Password").fill(PASSWORD)
            site.page.get_by_role("button", name="Sign in").click()
            site.page.wait_for_url("**/my/bots/")
        for page, suffix in ((site.page, ""), (phone, "-phone")):
            page.goto(site.url + path)
            if name == "match":
                expect(page.locator("#viewer-status")).to_contain_text("Finished")
            problems = accessibility_problems(page)
            assert not problems, f"{name}{suffix}: " + "; ".join(problems)
            if suffix:
                assert horizontal_overflow(page) <= 0, f"{name} is wider than a phone"
            site.screenshot(f"{name}{suffix}", page)
            if name == "leaderboard":
                assert_every_column_and_name_fits(page)
    phone.goto(site.url + urls["match"])
    expect(phone.locator("#viewer-status")).to_contain_text("Finished")
    phone.get_by_role("button", name="Step forward").click()
    expect(phone.locator("#viewer-position")).to_contain_text("1 / ")
    assert phone.get_by_role("button", name="Play").bounding_box() is not None


def assert_every_column_and_name_fits(page: Page) -> None:
    """Issue 26: on a phone, Games, Wins and Version were off the right edge of the
    leaderboard (scrolled inside its frame), and names wrapped onto three lines."""
    frame = page.locator(".table-wrap").first
    widths = frame.evaluate("(e) => [e.scrollWidth, e.clientWidth]")
    assert widths[0] <= widths[1], f"the leaderboard scrolls sideways: {widths}"
    for link in page.locator("table.leaderboard td.bot-cell a").all():
        lines = link.evaluate(
            "(e) => Math.round(e.getBoundingClientRect().height"
            " / parseFloat(getComputedStyle(e).lineHeight))"
        )
        assert lines <= 1, f"{link.inner_text()} takes {lines} lines"


WIDE_DESKTOP = {"width": 1366, "height": 900}
LONGEST_OWNER = "bartholomew-of-the-longer-name"
"""As long as a username may be: 30 characters."""
LONGEST_NAME = ("monte-carlo-tree-search-" * 3)[:BOT_NAME_MAX]


def docs_pages() -> dict[str, str]:
    """Every documentation page: the guide, the other documents, each game's rules."""
    others = {slug: f"/docs/{slug}/" for slug in DOCS if slug != "bot-protocol"}
    rules = {f"rules-{game}": f"/games/{game}/rules/" for game in game_ids()}
    return {"guide": "/docs/"} | others | rules


def test_the_docs_and_the_home_page_read_well_on_a_desktop_and_on_a_phone(
    site: Site, ladders: list[Ladder], make_bot: MakeBot, owners: list[User]
) -> None:
    """Issue 26, findings 2 and 4: a newcomer's first pages. On a phone no page scrolls
    sideways, a code block stays inside the window (scrolling inside itself) and a table
    fits its box, so no column of it hides off the edge; on the home page a bot's name and
    rating keep to one line on a desktop, even for a name as long as names may be, and
    the title is plain text."""
    ladder = Ladder.objects.get(game="akropolis", players=3)
    owners[0] = User.objects.create_user(LONGEST_OWNER, password="x" * 12)
    bots = [make_bot(owners[0], LONGEST_NAME), make_bot(owners[1], "greedy-2")]
    bots.append(make_bot(owners[2], "random"))
    versions = [bot.versions.get(status="active") for bot in bots]
    play_and_finish(ranked_match(ladder, versions, seed=8))
    desktop, phone = site.new_page(WIDE_DESKTOP), site.new_page(PHONE)

    for page, suffix in ((desktop, ""), (phone, "-phone")):
        page.goto(site.url + "/")
        assert page.title() == "Bots for city-building board games · Agon"
        assert accessibility_problems(page) == []
        assert on_more_than_one_line(page, ".leaders .rating") == [], f"home{suffix}"
        site.screenshot(f"first-pages/home{suffix}", page)
    assert on_more_than_one_line(desktop, ".leaders li") == []
    assert scrolling_sideways(desktop, ".table-wrap") == [], "a match list hides a column"
    assert horizontal_overflow(phone) <= 0, "the home page is wider than a phone"

    for name, path in docs_pages().items():
        for page, suffix in ((desktop, ""), (phone, "-phone")):
            page.goto(site.url + path)
            assert "<" not in page.title() and "&" not in page.title(), page.title()
            site.screenshot(f"first-pages/{name}{suffix}", page)
        assert horizontal_overflow(phone) <= 0, f"{name} is wider than a phone"
        assert past_the_right_edge(phone, "pre, table") == [], f"{name} on a phone"
        assert scrolling_sideways(phone, ".doc table") == [], f"{name}: a table hides a column"


@pytest.mark.parametrize(
    ("game", "players", "count"),
    [
        ("attika", 3, "svg.board-svg g.hex[data-building]:not([data-building=''])"),
        ("architekton", 2, "svg.board-svg g.cell"),
        ("megalopolis", 3, "svg.board-svg g.tile"),
    ],
)
def test_the_other_games_boards_follow_the_engine(
    site: Site,
    ladders: list[Ladder],
    make_bot: MakeBot,
    owners: list[User],
    game: str,
    players: int,
    count: str,
) -> None:
    match = finished(make_bot, owners, game, players)
    replay = stored_replay(match)
    engine = get_game(game)
    expected = []
    for state in replay_states(replay):
        if game == "attika":
            expected.append(sum(len(seat.placed) for seat in state.seats))
        elif game == "architekton":
            expected.append(len(state.landscapes) + len(state.buildings))
        else:
            expected.append(len(state.board))
    last = len(replay.actions)
    page = site.open(f"/matches/{match.id}/")
    expect(page.locator("#viewer-status")).to_have_text(f"Finished: {last} moves.")
    for step in sorted({0, 1, last // 3, last // 2, last}):
        page.evaluate(f"window.AgonViewer.instances[0].go({step})")
        assert page.locator(count).count() == expected[step], f"{game} step {step}"
    assert [int(t) for t in page.locator("[data-score-seat]").all_inner_texts()] == (
        engine.result(state).scores
    )
    page.evaluate(f"window.AgonViewer.instances[0].go({last // 2})")
    site.screenshot(f"match-{game}")
