"""The user's bots on a site, as `submit` and `test` find them, and a version's validation
followed until it ends."""

from __future__ import annotations

import time
from typing import Any

from agon_kit.progress import progress_bar
from agon_kit.remote import RemoteError, Site

POLL_SECONDS = 2.0
MAX_PAGES = 50
"""Of 200 bots each: more than any user has."""
VALIDATING = "validating"


def my_bots(site: Site) -> list[dict[str, Any]]:
    me = site.get("/api/auth/me/")
    bots: list[dict[str, Any]] = []
    for page in range(1, MAX_PAGES + 1):
        answer = site.get("/api/bots/", owner=me["username"], page=page, page_size=200)
        bots.extend(answer["results"])
        if not answer.get("next"):
            break
    return bots


def my_bot(site: Site, name: str) -> dict[str, Any] | None:
    """The user's bot of that name, else of that id; None if there is none."""
    bots = my_bots(site)
    for bot in bots:
        if bot["name"] == name:
            return bot
    for bot in bots:
        if str(bot["id"]) == name:
            return bot
    return None


def versions_of(site: Site, bot_id: int) -> list[dict[str, Any]]:
    """The bot's versions, oldest first."""
    versions: list[dict[str, Any]] = site.get(f"/api/bots/{bot_id}/")["versions"]
    return sorted(versions, key=lambda version: int(version["number"]))


def version_of(site: Site, bot_id: int, number: int) -> dict[str, Any]:
    for version in versions_of(site, bot_id):
        if version["number"] == number:
            return version
    raise RemoteError(f"the bot {bot_id} has no version {number}")


def follow_validation(site: Site, bot_id: int, number: int, seconds: float) -> dict[str, Any]:
    """The version once its validation ended, or as it is after `seconds`; a line on
    standard error counts the time meanwhile."""
    deadline = time.monotonic() + seconds
    with progress_bar(None, f"validating v{number}") as progress:
        while True:
            version = version_of(site, bot_id, number)
            if version["status"] != VALIDATING or time.monotonic() > deadline:
                return version
            progress.update(progress.task_ids[0])
            time.sleep(POLL_SECONDS)
