"""Nim, the tests' fifth game (tests/games/nim), in the replay viewer: with no board
renderer, each step shows the text render of the engine's position and the spectator's
words for the move."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import expect

from agon.ladders.models import Ladder
from agon.ladders.services import ladder_ensure_defaults
from engine.replay import replay_states
from engine.spec import GameSpec
from tests.platform.conftest import MakeBot
from tests.platform.support import ranked_match
from tests.platform.web.browser.conftest import PHONE, Site
from tests.platform.web.browser.support import stored_replay
from tests.platform.web.browser.viewer_pages import (
    open_replay,
    screenshot_viewer,
    wait_settled,
    zooms,
)
from tests.platform.web.support import play_and_finish


def test_each_step_of_a_nim_match_shows_the_engines_text_render(
    nim: GameSpec[Any], site: Site, make_bot: MakeBot, alice: User, bob: User
) -> None:
    ladder_ensure_defaults()  # the ladders with Nim's among them
    ladder = Ladder.objects.get(game="nim", players=2)
    bots = [make_bot(owner, f"nim-{owner.username}", "nim") for owner in (alice, bob)]
    versions = [bot.versions.get(status="active") for bot in bots]
    match = play_and_finish(ranked_match(ladder, versions, seed=8))
    replay = stored_replay(match)
    texts = [nim.game.render_text(state) for state in replay_states(replay)]
    last = len(replay.actions)

    page = site.open(f"/matches/{match.id}/")
    expect(page.locator("#viewer-status")).to_have_text(f"Finished: {last} moves.")
    for step in sorted({0, 1, last // 2, last}):
        page.evaluate(f"window.AgonViewer.instances[0].go({step})")
        expect(page.locator("pre.board-text")).to_have_text(texts[step])
    expect(page.locator("#viewer-caption")).to_contain_text(", leaving 0")

    # The text is fitted to its panel like a board, legible on a phone, and zooms.
    phone = site.new_page(PHONE)
    for shown, suffix in ((page, "desktop"), (phone, "phone")):
        open_replay(shown, site.url, match, step=1)
        text = shown.locator("pre.board-text").bounding_box()
        frame = shown.locator(".board-frame").bounding_box()
        assert text is not None and frame is not None
        assert frame["x"] <= text["x"] and text["x"] + text["width"] <= frame["x"] + frame["width"]
        assert text["height"] >= frame["height"] / 3  # not a small line in a corner
        screenshot_viewer(shown, f"viewer-nim-{suffix}", ".board-frame")
    phone.get_by_role("button", name="Zoom in").click()
    wait_settled(phone)
    assert zooms(phone)[0]["zoom"] == 1.5
