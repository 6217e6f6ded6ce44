"""The replay viewer, legible for every game: boards fitted to the position of the step
(not the final one), zoom and pan, full screen, links to a step, the view of one seat once
the match is over, and the owner's log beside each of its bot's turns."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agon.ladders.models import Ladder
from agon.matches.live import LiveRecorder
from agon.matches.models import Match
from agon.matches.services import match_claim
from agon.matches.timeline import match_timeline
from engine.match import play_match
from engine.registry import get_game
from engine.replay import replay_states
from tests.platform.conftest import MakeBot
from tests.platform.support import ranked_match
from tests.platform.web.browser.conftest import DESKTOP, PHONE, Site
from tests.platform.web.browser.support import stored_replay
from tests.platform.web.browser.test_hostile_pages import sign_in
from tests.platform.web.browser.viewer_pages import (
    VIEWER,
    board_sizes,
    drawn_boxes,
    finished_match,
    go,
    open_replay,
    screenshot_viewer,
    steps,
    wait_settled,
    zooms,
)

GAMES = [("akropolis", 4, 60), ("attika", 2, 5), ("architekton", 2, 4), ("megalopolis", 3, 7)]


@pytest.fixture
def four_owners(alice: User, bob: User) -> list[User]:
    extra = [User.objects.create_user(name, password="x" * 12) for name in ("carol", "dave")]
    return [alice, bob, *extra]


def inside(drawn: list[float], box: list[float]) -> bool:
    x, y, w, h = drawn
    return (
        x >= box[0] - 0.5
        and y >= box[1] - 0.5
        and x + w <= box[0] + box[2] + 0.5
        and y + h <= box[1] + box[3] + 0.5
    )


def in_window(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def overlapping(page: Page, first: str, second: str) -> bool:
    """Whether the box of `first` meets the box of any `second` on screen."""
    bar = page.locator(first).bounding_box()
    assert bar is not None
    for box in (
        page.locator(second).nth(k).bounding_box() for k in range(page.locator(second).count())
    ):
        assert box is not None
        if (
            bar["x"] < box["x"] + box["width"] - 0.5
            and box["x"] < bar["x"] + bar["width"] - 0.5
            and bar["y"] < box["y"] + box["height"] - 0.5
            and box["y"] < bar["y"] + bar["height"] - 0.5
        ):
            return True
    return False


@pytest.mark.parametrize(("game", "players", "seed"), GAMES)
def test_every_game_s_board_fits_the_position_of_its_step_and_grows_smoothly(
    site: Site, make_bot: MakeBot, four_owners: list[User], game: str, players: int, seed: int
) -> None:
    match = finished_match(make_bot, four_owners[:players], game=game, seed=seed)
    for viewport, suffix in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = site.new_page(viewport)
        open_replay(page, site.url, match)
        last = steps(page) - 1
        previous: list[dict[str, Any]] | None = None
        for name, step in (("start", 0), ("middle", last // 2), ("end", last)):
            go(page, step)
            shown = zooms(page)
            for zoom, drawn in zip(shown, drawn_boxes(page), strict=True):
                assert inside(drawn, zoom["fit"]), (step, drawn, zoom["fit"])
            if previous is not None:  # it only grows as the match goes on
                for before, after in zip(previous, shown, strict=True):
                    assert after["fit"][2] >= before["fit"][2] - 0.01
            previous = shown
            # Legible: a board too big for the panel is shown zoomed in around the last move,
            # and the page says so.
            note = page.locator("#viewer-zoom-note")
            if max(z["zoom"] for z in shown) > 1:
                expect(note).to_contain_text("Part of the board is shown")
            else:
                expect(note).to_have_text("")
            sizes = board_sizes(page)
            assert sizes["cell"] >= 24, (game, suffix, name, sizes)
            if game != "architekton":  # its cells have no labels
                assert sizes["label"] >= 8, (game, suffix, name, sizes)
            # The controls on screen above the board, whatever its size.
            page.evaluate(
                "document.querySelector('.viewer-controls').scrollIntoView({block: 'center'})"
            )
            assert in_window(page, ".viewer-controls"), f"{game} {suffix} step {step}"
            # The bar never covers the board, at any scroll of the page.
            for scroll in (0, 300, 10_000):
                page.evaluate(f"window.scrollTo(0, {scroll})")
                assert not overlapping(page, ".viewer-controls", ".zoomable"), (
                    f"{game} {suffix} step {step} scroll {scroll}"
                )
            if viewport == DESKTOP:  # the viewer at the window's top: most of a board in it
                page.evaluate("document.getElementById('viewer').scrollIntoView()")
                first_board = page.locator(".zoomable").first.bounding_box()
                assert first_board is not None and first_board["y"] < DESKTOP["height"] - 300, (
                    f"{game} step {step}: the board begins at {first_board}"
                )
            # On a phone, the board at the top of the window: the players' cards come first.
            top = ".zoomable" if viewport == PHONE else "#viewer"
            screenshot_viewer(page, f"viewer-{game}-{name}-{suffix}", top)
        first, final = previous or [], zooms(page)
        go(page, 0)
        start = zooms(page)
        # Fitted to the start, not to the end: the first step's box is smaller.
        assert sum(z["fit"][2] for z in start) < sum(z["fit"][2] for z in final)
        assert [z["fit"] for z in first] == [z["fit"] for z in final]
        page.close()


@pytest.fixture
def akropolis_2p(make_bot: MakeBot, alice: User, bob: User) -> Match:
    return finished_match(make_bot, [alice, bob], game="akropolis", seed=11)


def test_the_address_follows_the_step_and_a_step_link_opens_there(
    site: Site, akropolis_2p: Match
) -> None:
    page = open_replay(site.page, site.url, akropolis_2p, step=7)
    last = steps(page) - 1
    expect(page.locator("#viewer-position")).to_have_text(f"7 / {last}")
    expect(page.locator("#viewer-caption")).to_contain_text("Step 7:")
    page.get_by_role("button", name="Step forward").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/\?step=8$"))
    link = page.get_by_role("link", name="Link to this step")
    expect(link).to_have_attribute("href", f"/matches/{akropolis_2p.id}/?step=8")
    link.click()
    expect(page.locator("#viewer-status")).to_contain_text("step 8")
    page.keyboard.press("Home")
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))  # the start is the page itself
    # A step past the end lands on the last one; a link works from another page too.
    other = site.new_page(PHONE)
    open_replay(other, site.url, akropolis_2p, step=10_000)
    expect(other.locator("#viewer-position")).to_have_text(f"{last} / {last}")


def test_zoom_by_buttons_keys_wheel_and_drag_and_back_to_the_fitted_board(
    site: Site, akropolis_2p: Match
) -> None:
    page = open_replay(site.page, site.url, akropolis_2p, step=12)
    (fitted, _) = zooms(page)
    assert fitted["zoom"] == 1  # early on, the whole city is legible in its panel
    board = page.locator(".board-svg.zoomable").first
    page.get_by_role("button", name="Zoom in").click()
    wait_settled(page)
    (zoomed, other) = zooms(page)
    assert zoomed["zoom"] == other["zoom"] == 1.5  # every city of the table
    assert abs(zoomed["shown"][2] - fitted["shown"][2] / 1.5) < 0.1
    expect(board).to_have_attribute("data-zoom", "1.50")
    expect(page.locator("#viewer-status")).to_have_text("Zoom: 150%")

    page.locator("#viewer-title").click()
    page.keyboard.press("+")
    assert zooms(page)[0]["zoom"] == pytest.approx(2.25)
    page.keyboard.press("-")
    assert zooms(page)[0]["zoom"] == pytest.approx(1.5)

    # The wheel zooms about the pointer: the point under it stays put.
    board.evaluate("(node) => node.scrollIntoView({block: 'start'})")
    box = board.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.4
    under = page.evaluate(f"{VIEWER}.zooms[0].toUnits({x}, {y}, {VIEWER}.zooms[0].shown)")
    page.mouse.move(x, y)
    page.mouse.wheel(0, -300)
    wait_settled(page)
    after = zooms(page)[0]
    assert after["zoom"] > 1.5
    still = page.evaluate(f"{VIEWER}.zooms[0].toUnits({x}, {y}, {VIEWER}.zooms[0].shown)")
    assert abs(still[0] - under[0]) < 0.5 and abs(still[1] - under[1]) < 0.5

    # Dragging pans (left-right and up-down), within the board.
    page.mouse.down()
    page.mouse.move(x + 60, y + 30, steps=4)
    page.mouse.up()
    dragged = zooms(page)[0]
    assert dragged["shown"][0] < after["shown"][0] and dragged["shown"][1] < after["shown"][1]

    # Stepping keeps the zoom; "0" (or the button) fits the board again.
    page.keyboard.press("ArrowRight")
    wait_settled(page)
    assert zooms(page)[0]["zoom"] == dragged["zoom"]
    page.keyboard.press("0")
    wait_settled(page)
    assert [z["zoom"] for z in zooms(page)] == [1, 1]
    assert zooms(page)[0]["shown"] == pytest.approx(zooms(page)[0]["fit"], abs=0.05)
    # Speed moved to < and >.
    page.keyboard.press(">")
    expect(page.locator("#viewer-speed")).to_have_value("4")
    page.keyboard.press("<")
    page.keyboard.press("<")
    expect(page.locator("#viewer-speed")).to_have_value("1")


def test_pinching_zooms_a_board_on_a_phone(site: Site, akropolis_2p: Match) -> None:
    page = site.new_page(PHONE)
    open_replay(page, site.url, akropolis_2p, step=30)
    board = page.locator(".board-svg.zoomable").first
    board.scroll_into_view_if_needed()
    box = board.bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    before = zooms(page)[0]["zoom"]
    # Two fingers moving apart, as pointer events (what a touch screen sends).
    board.evaluate(
        """(svg, [cx, cy]) => {
          const fire = (type, id, x) => svg.dispatchEvent(new PointerEvent(type, {
            pointerId: id, pointerType: "touch", clientX: x, clientY: cy, bubbles: true,
          }));
          fire("pointerdown", 1, cx - 20); fire("pointerdown", 2, cx + 20);
          for (let k = 1; k <= 5; k += 1) {
            fire("pointermove", 1, cx - 20 - 10 * k);
            fire("pointermove", 2, cx + 20 + 10 * k);
          }
          fire("pointerup", 1, cx - 70); fire("pointerup", 2, cx + 70);
        }""",
        [cx, cy],
    )
    wait_settled(page)
    assert zooms(page)[0]["zoom"] == pytest.approx(min(8, before * 3.5))  # 140 px apart from 40
    screenshot_viewer(page, "viewer-akropolis-pinched-phone", ".zoomable")
    page.get_by_role("button", name="Fit the board").click()
    assert zooms(page)[0]["zoom"] == pytest.approx(before)


def test_full_screen_keeps_the_board_and_the_controls_in_the_window(
    site: Site, akropolis_2p: Match
) -> None:
    page = open_replay(site.page, site.url, akropolis_2p, step=25)
    page.get_by_role("button", name="Full screen").click()
    expect(page.locator("#viewer")).to_have_class(re.compile("viewer-fullscreen"))
    expect(page.get_by_role("button", name="Leave full screen")).to_have_attribute(
        "aria-pressed", "true"
    )
    assert in_window(page, ".viewer-controls")
    screenshot_viewer(page, "viewer-fullscreen-desktop")
    page.get_by_role("button", name="Leave full screen").click()
    expect(page.locator("#viewer")).not_to_have_class(re.compile("viewer-fullscreen"))


def test_a_finished_match_is_seen_as_each_seat_saw_it_and_a_running_one_is_not(
    site: Site, ladders: list[Ladder], make_bot: MakeBot, alice: User, bob: User
) -> None:
    attika = finished_match(make_bot, [alice, bob], game="attika", seed=5)
    page = open_replay(site.page, site.url, attika, step=12)
    seen = page.locator("#viewer-seat-view")
    expect(seen).to_be_hidden()
    page.get_by_label("View as").select_option("1")
    expect(seen).to_be_visible()
    expect(seen.locator("h3")).to_contain_text("seat 1 (bob/bob-attika v1) was shown at step 12")
    game = get_game("attika")
    observations = [  # as JSON, while each state is there (the replay moves one state)
        json.loads(json.dumps(game.observation(state, 1)))
        for state in replay_states(stored_replay(attika))
    ]
    assert json.loads(seen.locator("pre").inner_text()) == observations[12]
    page.get_by_role("button", name="Step forward").click()
    expect(seen.locator("h3")).to_contain_text("at step 13")
    assert json.loads(seen.locator("pre").inner_text()) == observations[13]
    page.get_by_label("View as").select_option("")
    expect(seen).to_be_hidden()

    # While a match runs, no seat's view is offered.
    ladder = Ladder.objects.get(game="akropolis", players=2)
    versions = [
        make_bot(owner, f"{owner.username}-live").versions.get(status="active")
        for owner in (alice, bob)
    ]
    running = ranked_match(ladder, versions, seed=9)
    assert match_claim(match_id=running.id) is not None
    akropolis = get_game("akropolis")
    moves = play_match(
        akropolis,
        seed=running.seed,
        players=2,
        options={},
        bots=[akropolis.greedy_bot(seat) for seat in range(2)],
        bot_ids=["a", "b"],
    ).actions
    live = LiveRecorder(running.id, interval=0)
    for action in moves[:6]:
        live(None, 0, action)
    page.goto(f"{site.url}/matches/{running.id}/")
    expect(page.locator("#viewer-status")).to_contain_text("Live: 6 moves so far")
    expect(page.locator(".control-as")).to_be_hidden()
    expect(page.locator("#viewer-seat-view")).to_be_hidden()


TURN_LOGS = [f"thinking about turn {turn}\n".encode() for turn in range(40)]
TURN_LOGS[2] = b"<script>alert(1)</script>\x00\xff\x1b[31m turn 2\n"
TURN_LOGS[3] = b""
TURN_LOGS[5] = b"X" * 200_000  # the referee keeps 256 KiB; the panel shows it in its box


def test_the_owner_reads_its_bot_s_log_beside_each_of_its_turns_and_nobody_else_does(
    site: Site, make_bot: MakeBot, alice: User, bob: User
) -> None:
    match = finished_match(make_bot, [alice, bob], game="akropolis", seed=11, logs={0: TURN_LOGS})
    seats = match_timeline(match)["steps"]
    assert isinstance(seats, list)
    alice_steps = [index for index, step in enumerate(seats) if step["seat"] == 0]
    sign_in(site, site.page, "alice")
    page = open_replay(site.page, site.url, match, step=alice_steps[0])
    panel = page.locator("#viewer-log")
    expect(panel.locator("h3")).to_have_text(
        f"Your bot's log, seat 0, its turn 0 (step {alice_steps[0]})"
    )
    expect(panel.locator("pre")).to_have_text("thinking about turn 0\n")
    go(page, alice_steps[2])
    expect(panel.locator("pre")).to_have_text(
        "<script>alert(1)</script>\\x00\\xff\\x1b[31m turn 2\n"
    )
    assert page.evaluate("document.querySelectorAll('#viewer-log script').length") == 0
    screenshot_viewer(page, "viewer-owner-log-desktop")
    go(page, alice_steps[3])
    expect(panel.locator("pre")).to_have_text("(nothing written on this turn)")
    go(page, alice_steps[5])
    expect(panel.locator("pre")).to_have_text("X" * 200_000)
    shown = panel.locator("pre").bounding_box()
    assert shown is not None and shown["height"] < 300 and shown["width"] < 400
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    go(page, alice_steps[0] + 1)  # bob's turn: not alice's to read
    expect(panel).to_be_hidden()
    marked = page.locator("#viewer-moves .has-log")
    expect(marked.first).to_be_visible()
    assert marked.count() == len(alice_steps) - 1  # all but the silent turn

    phone = site.new_page(PHONE)
    open_replay(phone, site.url, match, step=alice_steps[4])
    expect(phone.locator("#viewer-log pre")).to_have_text("thinking about turn 4\n")
    screenshot_viewer(phone, "viewer-owner-log-phone", "#viewer-log")
    phone.close()

    # Bob sees his own seat's (it wrote nothing) and never alice's; nor does anybody.
    page.context.clear_cookies()
    sign_in(site, page, "bob")
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    with page.expect_response(re.compile(r"/logs/1/$")):
        open_replay(page, site.url, match, step=alice_steps[2])
    expect(page.locator("#viewer-log")).to_be_hidden()
    assert not [url for url in fetched if "/logs/0/" in url]
    page.context.clear_cookies()
    open_replay(page, site.url, match, step=alice_steps[2])
    expect(page.locator("#viewer-log")).to_be_hidden()
    expect(page.locator("#viewer-moves .has-log")).to_have_count(0)


def test_long_bot_names_are_shown_whole_and_told_apart_on_every_card(
    site: Site, make_bot: MakeBot, four_owners: list[User]
) -> None:
    long_name = "an-extraordinarily-long-bot-name-that-never-ends-anywhere-soon"
    names = [long_name, "megalopolis-random", "megalopolis-random-2"]
    match = finished_match(make_bot, four_owners[:3], game="megalopolis", seed=7, bot_names=names)
    for viewport, suffix in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = site.new_page(viewport)
        open_replay(page, site.url, match, step=1)
        name = page.locator(".player .bot-name").first
        expect(name).to_have_attribute("title", f"alice/{long_name} v1")
        # Every word whole (wrapped inside its card, never cut), so the seats differ.
        shown = page.evaluate(
            """() => [...document.querySelectorAll(".player .bot-name")].map((label) => {
              const card = label.closest(".player").getBoundingClientRect();
              const words = [...label.querySelectorAll(".word")];
              return { text: label.innerText.replace(/\\s+/g, " "),
                       cut: words.some((w) => w.scrollWidth > w.clientWidth + 1),
                       inside: words.every(
                         (w) => w.getBoundingClientRect().right <= card.right + 0.5) };
            })"""
        )
        assert [entry["text"].replace(" ", "") for entry in shown] == [
            f"{owner.username}/{bot}v1" for owner, bot in zip(four_owners, names, strict=False)
        ], shown
        assert not any(entry["cut"] for entry in shown), shown
        assert all(entry["inside"] for entry in shown), shown
        screenshot_viewer(page, f"viewer-long-names-{suffix}")
        page.close()
