"""Helpers for browser tests of the replay viewer: a finished match of any game, the
viewer opened at a step, its zoom and its boards as the page has them, screenshots."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from agon.ladders.models import Ladder
from agon.matches.models import Match
from tests.platform.conftest import MakeBot
from tests.platform.support import ranked_match
from tests.platform.web.browser.conftest import SCREENSHOTS
from tests.platform.web.support import play_and_finish

VIEWER = "window.AgonViewer.instances[0]"


def finished_match(
    make_bot: MakeBot,
    owners: Sequence[User],
    *,
    game: str,
    seed: int,
    logs: Mapping[int, str | bytes | Sequence[bytes]] | None = None,
    bot_names: Sequence[str] | None = None,
) -> Match:
    """A ranked match of `game` between a bot of each owner (seat k: owners[k]'s),
    played by greedy builtin bots and finished, with these logs."""
    ladder = Ladder.objects.get(game=game, players=len(owners))
    names = bot_names or [f"{owner.username}-{game}" for owner in owners]
    versions = [
        make_bot(owner, name, game).versions.get(status="active")
        for owner, name in zip(owners, names, strict=True)
    ]
    return play_and_finish(ranked_match(ladder, versions, seed=seed), logs=logs)


def open_replay(page: Page, base_url: str, match: Match, step: int | None = None) -> Page:
    """The match page, its replay loaded (at `step` through the address if given)."""
    query = "" if step is None else f"?step={step}"
    page.goto(f"{base_url}/matches/{match.id}/{query}")
    expect(page.locator("#viewer-status")).to_contain_text("Finished")
    wait_settled(page)
    return page


def go(page: Page, step: int) -> None:
    page.evaluate(f"{VIEWER}.go({step})")
    wait_settled(page)


def wait_settled(page: Page, timeout: float = 5.0) -> None:
    """Until every board shows the box it is easing to (polled: the pages' Content-Security-
    Policy refuses what `wait_for_function` evaluates)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(f"() => {VIEWER}.zooms.every((zoom) => zoom.settled())"):
        assert time.monotonic() < deadline, "the boards did not settle"
        page.wait_for_timeout(50)


def steps(page: Page) -> int:
    return int(page.evaluate(f"{VIEWER}.views.length"))


def zooms(page: Page) -> list[dict[str, Any]]:
    """Each board's zoom level, the box fitted to the step and the box shown (x, y, w, h,
    in the board's units)."""
    return list(
        page.evaluate(
            f"{VIEWER}.zooms.map((z) => ({{zoom: z.zoom, fit: z.fitBox, shown: z.shown}}))"
        )
    )


def drawn_boxes(page: Page) -> list[list[float]]:
    """The box of what each SVG board has drawn (x, y, w, h, in its units)."""
    return list(
        page.evaluate(
            f"""{VIEWER}.zooms.filter((z) => !z.content).map((z) => {{
              const box = z.element.querySelector("g").getBBox();
              return [box.x, box.y, box.width, box.height];
            }})"""
        )
    )


def screenshot_viewer(page: Page, name: str, top: str = "#viewer") -> Path:
    """The window (what a person sees at once, not the whole page) scrolled to put the
    first `top` at its top, into var/screenshots/."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.locator(top).first.evaluate("(node) => node.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(path))
    return path


LABELS = "g.hex > text:first-of-type, g.tile > text:first-of-type"
CELLS = "g.hex > polygon:first-child, g.cell > rect, g.tile > rect"


def board_sizes(page: Page) -> dict[str, float]:
    """On screen, in CSS pixels: the smallest main label of a cell (its height: a level,
    a building's letter, a tile's kind) and the smallest cell (a hex, square or tile)."""
    return dict(
        page.evaluate(
            f"""() => {{
              const labels = [], cells = [];
              for (const zoom of {VIEWER}.zooms.filter((z) => !z.content)) {{
                for (const text of zoom.element.querySelectorAll("{LABELS}")) {{
                  const box = text.getBoundingClientRect();
                  if (text.textContent.trim() && box.height) labels.push(box.height);
                }}
                for (const shape of zoom.element.querySelectorAll("{CELLS}")) {{
                  const box = shape.getBoundingClientRect();
                  if (box.width) cells.push(box.width);
                }}
              }}
              return {{ label: Math.min(...labels), cell: Math.min(...cells) }};
            }}"""
        )
    )
