"""Each tournament format, as a user runs one: a private tournament made through the API
with a short entry window, the user's bots entered, then played by the platform's own
worker and beat to its final standings.

The five tournaments are made at once, once for the test run (by two users: a user may have
three private ones unfinished), and played side by side; each test then waits for its own.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.acceptance.platforms import shared, shared_folder
from tests.acceptance.support import (
    FIRST_LEGAL,
    GAME,
    LAST_LEGAL,
    LOOKAHEAD,
    RANDOM,
    AgonUp,
    User,
    wait_for,
)

ENTRANTS = {
    "round-robin": 4,
    "swiss": 3,  # a bye each round
    "knockout": 4,
    "double-elimination": 3,  # byes in the brackets
    "gauntlet": 3,
}
ENTRY_SECONDS = 15.0
"""The entry window: long enough to enter the bots on a loaded machine."""
FINISH_SECONDS = 900.0
"""From the entry's close: every tournament here has finished long before on a quiet
machine (a couple of minutes for all five together)."""
STALLED_SECONDS = 60.0
"""A tournament whose every game is decided and which neither pairs another nor finishes
for this long (beat looks every second) is stuck."""


@dataclass
class Running:
    agon: AgonUp
    organizers: dict[str, User]
    ids: dict[str, int]
    entry_closes: float
    """time.time() when the last entry closed."""

    def shown(self, format: str) -> dict[str, Any]:
        tournament: dict[str, Any] = self.organizers[format].get(
            f"/api/tournaments/{self.ids[format]}/"
        )
        return tournament

    def explain(self) -> str:
        """Each tournament's status and progress, then the end of the platform's log."""
        lines = []
        for format, tournament_id in self.ids.items():
            try:
                shown = self.shown(format)
            except Exception as error:  # a failure message says what it can
                lines.append(f"  {format} ({tournament_id}): unreadable: {error}")
                continue
            lines.append(
                f"  {format} ({tournament_id}): {shown['status']}, progress "
                f"{shown['progress']}, {len(shown['standings'])} standings"
                + (f", note: {shown['note']}" if shown["note"] else "")
            )
        return "\n--- the tournaments ---\n" + "\n".join(lines) + self.agon.explain()


def _make_tournaments(agon: AgonUp) -> dict[str, Any]:
    """Ada uploads four bots and opens them to events; once they are active, she and Bea
    make the five tournaments (a user may have three private ones unfinished) and enter
    them."""
    ada = User.sign_up(agon.url, "ada")
    sources = {"first": FIRST_LEGAL, "last": LAST_LEGAL, "random": RANDOM, "lookahead": LOOKAHEAD}
    bots = [ada.upload_bot(name, source) for name, source in sources.items()]
    for bot in bots:
        ada.wait_active(bot["id"], 1, agon.explain)
        # Bea enters them into hers: Ada lets other users enter them into their events.
        ada.json("PATCH", f"/api/bots/{bot['id']}/", {"open_to_events": True})
    bea = User.sign_up(agon.url, "bea")
    organizers = {
        "round-robin": ada,
        "swiss": ada,
        "knockout": ada,
        "double-elimination": bea,
        "gauntlet": bea,
    }
    ids = {}
    for format, entrants in ENTRANTS.items():
        organizer = organizers[format]
        closes = datetime.now(UTC) + timedelta(seconds=ENTRY_SECONDS)
        made = organizer.post(
            "/api/tournaments/",
            {
                "name": f"acceptance {format}",
                "game": GAME,
                "format": format,
                "meetings": 1,
                "max_entrants": entrants,
                "entry_closes": closes.isoformat(),
            },
        )
        assert (made["status"], made["public"]) == ("entry", False), made
        for bot in bots[:entrants]:
            organizer.post(f"/api/tournaments/{made['id']}/entries/", {"bot": bot["id"]})
        ids[format] = made["id"]
    return {
        "organizers": {format: [u.username, u.token] for format, u in organizers.items()},
        "ids": ids,
        "entry_closes": time.time() + ENTRY_SECONDS,
    }


@pytest.fixture(scope="session")
def tournaments(
    agon: AgonUp, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Running:
    """The five formats, each a private tournament of the quick game, meetings=1: made
    once for the run (whichever worker asks first), played side by side."""
    folder = shared_folder(request.config, tmp_path_factory)
    made = shared(folder, f"{agon.stack}-tournaments", lambda: _make_tournaments(agon))
    organizers = {
        format: User(agon.url, username, token)
        for format, (username, token) in made["organizers"].items()
    }
    return Running(agon, organizers, made["ids"], made["entry_closes"])


@pytest.mark.parametrize("format", list(ENTRANTS))
def test_a_private_tournament_is_played_to_its_final_standings(
    tournaments: Running, format: str
) -> None:
    entrants = ENTRANTS[format]
    organizer = tournaments.organizers[format]
    stalled: dict[str, float] = {}

    def finished() -> dict[str, Any] | None:
        tournaments.agon.alive()
        shown = tournaments.shown(format)
        assert shown["status"] in ("entry", "running", "finished"), tournaments.explain()
        if shown["status"] == "finished":
            return shown
        progress = shown["progress"]
        decided = shown["status"] == "running" and progress["games"] == progress["decided"]
        key = f"{progress['games']}/{progress['decided']}"
        if not decided:
            stalled.clear()
        elif stalled.setdefault(key, time.monotonic()) < time.monotonic() - STALLED_SECONDS:
            raise AssertionError(
                f"the {format} tournament is stuck: all its {progress['games']} games are "
                f"decided, yet for {STALLED_SECONDS:g} s it neither paired more nor "
                f"finished{tournaments.explain()}"
            )
        return None

    remaining = FINISH_SECONDS - (time.time() - tournaments.entry_closes)
    shown = wait_for(
        finished,
        timeout=max(remaining, 60.0),
        what=f"the {format} tournament to finish",
        explain=tournaments.explain,
        interval=2.0,
    )

    entries = shown["entries"]
    assert len(entries) == entrants and all(e["version"] == 1 for e in entries), entries
    standings = shown["standings"]
    assert sorted(row["entrant"] for row in standings) == list(range(entrants)), standings
    assert sorted(row["bot"] for row in standings) == sorted(e["bot"] for e in entries)
    ranks = [row["rank"] for row in standings]
    assert ranks == sorted(ranks) and ranks[0] == 1 and ranks[-1] <= entrants, standings
    assert shown["finished"] is not None and shown["started"] is not None
    progress = shown["progress"]
    assert progress["games"] == progress["decided"] > 0, progress

    games = _all_games(organizer, shown["games"])
    played = [game for game in games if game["status"] != "bye"]
    assert len(played) == progress["games"], games
    assert {game["status"] for game in played} == {"finished"}, games
    assert all(game["ranks"] and game["replay"] for game in played), games
    deals = []
    for game in played:
        status, replay = organizer.request("GET", game["replay"])
        assert status == 200 and replay, f"the replay of game {game}: {status}"
        deals.append(json.loads(replay)["seed"])
    # No two games dealt alike, not even a meeting's: a bot that remembers one game's deal
    # (docs/threat-model.md) learns nothing of another's.
    assert len(set(deals)) == len(deals), deals


def _all_games(user: User, url: str) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = []
    page: str | None = url
    while page:
        shown = user.get(page)
        games += shown["results"]
        page = shown["next"]
    return games
