"""A human game played to the end in Chromium, for each game, at a laptop's size and a
phone's: from a bot's page (or the game's) to the form, then every move clicked on the
page (a button, a hex or a square, as the game asks) while the match task plays the
bot's seat on a thread of this process, as a worker would; the result shown at the end.
The screenshots of the first turn and of the end are kept. At a phone's size the first
moves are clicked and the rest answered at once (the clicks are the laptop's again; a
whole game each way took three minutes of the suite)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from playwright.sync_api import Page, expect

from agon.matches.models import HumanTurn, Match
from agon.matches.services import match_execute
from tests.platform.web.browser.conftest import Site, looked_at, signed_in_page

GAMES = ["akropolis", "attika", "architekton", "megalopolis"]
GAME_SECONDS = 600.0
CLICKED_MOVES = {"laptop": None, "phone": 3}
"""How many of the human's moves are clicked at each size (None: all)."""


class MatchTask:
    """`match_execute` for one match on a thread of its own (the worker's role)."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(match_id,), daemon=True)
        self.thread.start()

    def finish(self) -> None:
        """However the test ended: answer whatever turn still waits, so that the game
        ends at once and the thread lets go of its database connection."""
        deadline = time.monotonic() + 60
        while self.thread.is_alive() and time.monotonic() < deadline:
            for turn in HumanTurn.objects.filter(match_id=self.match_id, moved__isnull=True):
                HumanTurn.objects.filter(id=turn.id, moved__isnull=True).update(
                    move=turn.legal[0], moved=timezone.now()
                )
            self.thread.join(timeout=0.2)

    def _run(self, match_id: int) -> None:
        try:
            match_execute(match_id=match_id)
        except BaseException as error:  # reported by the test
            self.error = error
        finally:
            connection.close()


def play_one_move(page: Page, after_a_choice: Callable[[], None] = lambda: None) -> None:
    """Click through the turn shown: the first choice at each step (a button, else a
    cell of the board), then play it; `after_a_choice` is called after the first one."""
    panel = page.locator("#human-turn")
    number = panel.get_attribute("data-turn")
    for step in range(6):
        play = page.locator("#turn-play")
        if play.is_visible():
            play.click()
            break
        pick = page.locator(".turn-pick").first
        if pick.count():
            pick.click()
        else:
            page.locator(".turn-cell").first.click()
        if step == 0:
            after_a_choice()
    expect(panel).to_have_attribute("data-played", str(number))


@pytest.mark.parametrize("viewport", ["laptop", "phone"])
@pytest.mark.parametrize("game", GAMES)
def test_a_human_game_is_played_to_the_end_in_the_browser(
    site: Site, alice: User, game: str, viewport: str
) -> None:
    page = signed_in_page(site, viewport)
    page.goto(f"{site.url}/play/?game={game}&opponent=builtin:greedy")
    looked_at(site, page, f"human-game/{game}/form", viewport)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/play/*/")
    match = Match.objects.get(kind=Match.Kind.HUMAN, created_by=alice)
    task = MatchTask(match.id)
    clicked = CLICKED_MOVES[viewport]
    try:
        moves = play_to_the_end(site, page, game, viewport, task, clicked)
    finally:
        task.finish()
    assert task.error is None, task.error

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.error
    assert not match.faults, match.faults  # every move made in time, every one legal
    turns = HumanTurn.objects.filter(match=match)
    assert not turns.filter(moved__isnull=True).exists()
    assert turns.count() == moves if clicked is None else turns.count() > moves == clicked
    expect(page.locator("#turn-status")).to_contain_text("The game is over")
    expect(page.locator("#match-summary")).to_contain_text("alice (human)", timeout=15_000)
    expect(page.locator("#viewer-status")).to_contain_text("Finished", timeout=15_000)
    looked_at(site, page, f"human-game/{game}/end", viewport)


def play_to_the_end(
    site: Site, page: Page, game: str, viewport: str, task: MatchTask, clicked: int | None
) -> int:
    """Every move of the human's seat clicked, or the first `clicked` and the rest
    answered by `MatchTask.finish`; how many were clicked."""
    panel = page.locator("#human-turn")
    expect(panel).to_have_attribute("data-turn", "0", timeout=30_000)
    expect(page.locator("#turn-prompt")).to_contain_text("Your turn")
    shots = f"human-game/{game}"
    looked_at(site, page, f"{shots}/first-turn", viewport)

    deadline = time.monotonic() + GAME_SECONDS
    moves = 0
    while "over" not in (panel.get_attribute("class") or ""):
        if moves == clicked:
            task.finish()
            break
        assert time.monotonic() < deadline, f"{moves} moves in {GAME_SECONDS:g} s"
        assert task.error is None, task.error
        turn = panel.get_attribute("data-turn")
        if turn is not None and turn != panel.get_attribute("data-played"):
            if moves == 2:
                play_one_move(page, lambda: looked_at(site, page, f"{shots}/choosing", viewport))
            else:
                play_one_move(page)
            moves += 1
        else:
            page.wait_for_timeout(50)
    task.thread.join(timeout=30)
    return moves
